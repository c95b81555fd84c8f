import {
  AgentPlatform,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  isApiError,
  NotFoundError,
  PagePromise,
} from "@agent-platform/sdk";
import { contractValidator } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A fetch that counts the requests it passes on (per path), for the SDK's own behaviour. */
function countingFetch() {
  const paths: string[] = [];
  const doFetch: typeof fetch = (input, init) => {
    paths.push(new URL(String(input)).pathname);
    return fetch(input, init);
  };
  return { paths, fetch: doFetch };
}

describe("AgentPlatform resources", () => {
  it("creates, updates, reads, versions, restores, duplicates, rotates and archives an agent", async () => {
    const platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
    const agent = await platform.agents.create({
      name: "Resource agent",
      model: "builtin/echo",
      mcpServers: [{ name: "docs", url: "https://mcp.example", headers: { Authorization: "x" } }],
    });
    expect(agent.version).toBe(1);
    const updated = await platform.agents.update(agent.id, { version: 1, system: "two" });
    expect(updated.version).toBe(2);
    expect((await platform.agents.get(agent.id, { version: 1 })).system).toBe("");
    const versions = await platform.agents.listVersions(agent.id);
    expect(versions.data.map((v) => v.version)).toEqual([2, 1]);
    const restored = await platform.agents.restore(agent.id, 1, { version: 2 });
    expect(restored.version).toBe(3);
    const rotated = await platform.agents.rotateMcpHeaders(agent.id, "docs", { headers: { Authorization: "y" } });
    expect(rotated).toBeDefined();
    const copy = await platform.agents.duplicate(agent.id, { name: "Copy" });
    expect(copy).toMatchObject({ name: "Copy", version: 1 });
    const archived = await platform.agents.archive(copy.id);
    expect(archived.archivedAt).not.toBeNull();
    const all: string[] = [];
    for await (const a of platform.agents.list({ status: "all" })) all.push(a.id);
    expect(all).toEqual(expect.arrayContaining([agent.id, copy.id]));
    const active = await platform.agents.list();
    expect(active.data.map((a) => a.id)).not.toContain(copy.id);
  });

  it("asks for the project once, sharing the first request, and not again after it is known", async () => {
    const counting = countingFetch();
    const platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key, fetch: counting.fetch });
    await Promise.all([platform.agents.list(), platform.sessions.list(), platform.environments.list()]);
    await platform.agents.list();
    expect(counting.paths.filter((p) => p === "/v1/platform/context")).toHaveLength(1);
    expect(await platform.projectId()).toBe(t.tenant.projectId);
  });

  it("does not remember a failed project lookup", async () => {
    let fail = true;
    const platform = new AgentPlatform({
      baseUrl: t.url,
      apiKey: t.tenant.key,
      maxRetries: 0,
      fetch: (input, init) => {
        if (fail && String(input).endsWith("/v1/platform/context")) {
          fail = false;
          return Promise.reject(new TypeError("network down"));
        }
        return fetch(input, init);
      },
    });
    await expect(platform.agents.list()).rejects.toMatchObject({ name: "ConnectionError" });
    expect((await platform.agents.list()).data).toBeInstanceOf(Array);
  });

  it("is an awaitable page and an async iterable over every page", async () => {
    const tenant = await t.newTenant();
    const platform = new AgentPlatform({ baseUrl: t.url, apiKey: tenant.key });
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push((await platform.agents.create({ name: `p${i}`, model: "builtin/echo" })).id);
    const listing = platform.agents.list({ limit: 2 });
    expect(listing).toBeInstanceOf(PagePromise);
    const first = await listing;
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.data).toHaveLength(2);
    const seen: string[] = [];
    for await (const a of platform.agents.list({ limit: 2 })) seen.push(a.id);
    expect(seen).toEqual([...created].reverse());
    const pages: number[] = [];
    for await (const page of platform.agents.list({ limit: 2 }).pages()) pages.push(page.data.length);
    expect(pages).toEqual([2, 2, 1]);
  });

  it("returns the response and request id with withResponse()", async () => {
    const platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
    const { data, response, requestId } = await platform.context().withResponse();
    expect(data.project.id).toBe(t.tenant.projectId);
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_/);
    expect(requestId).toBe(response.headers.get("x-request-id"));
    const page = await platform.agents.list().withResponse();
    expect(page.data.data).toBeInstanceOf(Array);
    expect(page.requestId).toMatch(/^req_/);
  });

  it("throws ApiError subclasses by status, narrowed by isApiError", async () => {
    const platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
    const missing = await platform.agents.get("agent_missing").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: "agent.not_found", requestId: expect.stringMatching(/^req_/) });
    expect((missing as ApiError).headers.get("x-request-id")).toBe((missing as ApiError).requestId);

    const invalid = await platform.agents.create({ name: "", model: "builtin/echo" }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    if (!isApiError(invalid, "request.invalid")) throw new Error("expected request.invalid");
    expect(invalid.details.issues[0]!.path).toContain("name");

    const agent = await platform.agents.create({ name: "Conflict", model: "builtin/echo" });
    const conflict = await platform.agents.update(agent.id, { version: 7, system: "x" }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(isApiError(conflict, "agent.version_conflict")).toBe(true);
    expect(isApiError(conflict, "agent.not_found")).toBe(false);

    const stranger = new AgentPlatform({ baseUrl: t.url, apiKey: "ap_wrong", projectId: t.tenant.projectId });
    await expect(stranger.agents.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("reads the API key and base URL from the environment", async () => {
    const saved = { key: process.env.AGENT_PLATFORM_API_KEY, url: process.env.AGENT_PLATFORM_BASE_URL };
    process.env.AGENT_PLATFORM_API_KEY = t.tenant.key;
    process.env.AGENT_PLATFORM_BASE_URL = t.url;
    try {
      const platform = new AgentPlatform();
      expect(platform.baseUrl).toBe(t.url);
      expect((await platform.context()).project.id).toBe(t.tenant.projectId);
      delete process.env.AGENT_PLATFORM_API_KEY;
      expect(() => new AgentPlatform()).toThrow(/AGENT_PLATFORM_API_KEY/);
    } finally {
      if (saved.key === undefined) delete process.env.AGENT_PLATFORM_API_KEY;
      else process.env.AGENT_PLATFORM_API_KEY = saved.key;
      if (saved.url === undefined) delete process.env.AGENT_PLATFORM_BASE_URL;
      else process.env.AGENT_PLATFORM_BASE_URL = saved.url;
    }
  });

  it("keeps unknown fields and enum values when validating responses, and reports the mismatch", async () => {
    // A newer server: an extra field and a status value this contract does not know.
    const newerServer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!new URL(String(input)).pathname.includes("/sessions/")) return response;
      const body = { ...((await response.json()) as object), status: "sleeping", mood: "calm" };
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    const issues: string[] = [];
    const platform = new AgentPlatform({
      baseUrl: t.url,
      apiKey: t.tenant.key,
      fetch: newerServer,
      validateResponses: contractValidator,
      onValidationIssue: (issue) => issues.push(issue.message),
    });
    const agent = await platform.agents.create({ name: "Validated", model: "builtin/echo" });
    expect(issues).toEqual([]);
    const session = await platform.sessions.create({ agent: agent.id });
    const read = (await platform.sessions.get(session.id)) as typeof session & { mood?: string };
    expect(read.status).toBe("sleeping");
    expect(read.mood).toBe("calm");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain("status");
  });
});
