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

describe("GET /v1/embedding-models", () => {
  it("lists the embedding models with their vectors, price, the default, and which providers this server can call", async () => {
    const member = await t.newTenant("member");
    const res = await t.http.get("/v1/embedding-models").set(member.auth);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.map((m: { id: string }) => [m.id, m]));
    expect(byId.get("builtin/hash-ngrams")).toEqual({
      id: "builtin/hash-ngrams",
      provider: "builtin",
      available: true,
      unavailableReason: null,
      dimensions: 512,
      shortenable: false,
      maxInputTokens: 1_000_000,
      pricing: { input: 0 },
      isDefault: true,
    });
    expect(byId.get("openai/text-embedding-3-small")).toEqual({
      id: "openai/text-embedding-3-small",
      provider: "openai",
      available: false,
      unavailableReason: expect.stringContaining("OPENAI_API_KEY"),
      dimensions: 1536,
      shortenable: true,
      maxInputTokens: 8191,
      pricing: { input: 0.02 },
      isDefault: false,
    });
    expect(res.body.data.filter((m: { isDefault: boolean }) => m.isDefault)).toHaveLength(1);
    // Chat models are not embedding models, and the other way round.
    expect(byId.has("openai/gpt-5")).toBe(false);
    const chat = await t.http.get("/v1/models").set(member.auth);
    expect(chat.body.data.some((m: { id: string }) => m.id.includes("embedding"))).toBe(false);
    const providers = res.body.data.map((m: { provider: string }) => m.provider);
    expect(providers).toEqual([...providers].sort((a: string, b: string) => order(a) - order(b)));
    expectError(await t.http.get("/v1/embedding-models"), 401, "auth.unauthorized");
  });

  it("says a provider's embedding models are available once the provider is configured", async () => {
    const configured = await startTestApp({ env: { OPENAI_API_KEY: "sk-test" } });
    try {
      const res = await configured.http.get("/v1/embedding-models").set(configured.tenant.auth);
      expect(res.body.data.find((m: { id: string }) => m.id === "openai/text-embedding-3-large")).toMatchObject({
        available: true,
        unavailableReason: null,
      });
    } finally {
      await configured.close();
    }
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
