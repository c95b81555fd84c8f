import { BUILTIN_TOOL_NAMES } from "@agent-platform/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      ANTHROPIC_API_KEY: "sk-ant-test",
      OPENAI_API_KEY: "",
      OPENAI_COMPATIBLE_BASE_URL: "",
      MODEL_CATALOGUE: JSON.stringify({
        "openai-compatible/llama-local": { contextWindow: 32_768, maxOutputTokens: 4_096 },
      }),
    },
  });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /v1/models", () => {
  it("lists the catalogue with the deployment's additions, and which providers this server can call", async () => {
    const res = await t.http.get("/v1/models").set(t.tenant.auth);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.map((m: { id: string }) => [m.id, m]));
    expect(byId.get("anthropic/claude-sonnet-4-5")).toEqual({
      id: "anthropic/claude-sonnet-4-5",
      provider: "anthropic",
      available: true,
      unavailableReason: null,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      pricing: { input: 3, output: 15, cachedInputRead: 0.3, cachedInputWrite: 3.75 },
      capabilities: { tools: true, images: true, reasoning: true, promptCaching: true },
    });
    expect(byId.get("openai/gpt-5")).toMatchObject({
      available: false,
      unavailableReason: expect.stringContaining("OPENAI_API_KEY"),
    });
    expect(byId.get("builtin/echo")).toMatchObject({ provider: "builtin", available: true });
    expect(byId.get("openai-compatible/llama-local")).toMatchObject({
      provider: "openai-compatible",
      available: false,
      unavailableReason: expect.stringContaining("OPENAI_COMPATIBLE_BASE_URL"),
      contextWindow: 32_768,
      maxOutputTokens: 4_096,
      pricing: null,
    });
    // By provider (anthropic, openai, openai-compatible, builtin), then id.
    const providers = res.body.data.map((m: { provider: string }) => m.provider);
    expect(providers).toEqual([...providers].sort((a: string, b: string) => order(a) - order(b)));
  });

  it("needs a key", async () => {
    expectError(await t.http.get("/v1/models"), 401, "auth.unauthorized");
  });
});

describe("GET /v1/tools", () => {
  it("lists every built-in tool with its description and whether it only reads", async () => {
    const member = await t.newTenant("member");
    const res = await t.http.get("/v1/tools").set(member.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.map((tool: { name: string }) => tool.name)).toEqual(BUILTIN_TOOL_NAMES);
    expect(res.body.data.find((tool: { name: string }) => tool.name === "web_fetch")).toEqual({
      name: "web_fetch",
      description: expect.stringContaining("Fetch a URL"),
      readOnly: true,
    });
    expectError(await t.http.get("/v1/tools"), 401, "auth.unauthorized");
  });
});

const PROVIDERS = ["anthropic", "openai", "openai-compatible", "builtin"];
const order = (provider: string) => PROVIDERS.indexOf(provider);
