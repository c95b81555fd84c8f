import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOutbound } from "../../src/lib/outbound/index.js";
import {
  type McpConnectionOptions,
  type McpConnectionSet,
  openMcpConnections,
} from "../../src/runtime/mcp/mcp-connections.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";

// The test servers listen on loopback, which the outbound address policy refuses unless it is opened.
const outbound = createOutbound({ allowCidrs: "127.0.0.0/8" });
const options: McpConnectionOptions = { connectTimeoutMs: 5_000, callTimeoutMs: 5_000, fetch: outbound.fetch };
const noHeaders = async () => ({});

let streamable: TestMcpServer;
let sets: McpConnectionSet[] = [];

function open(...args: Parameters<typeof openMcpConnections>): McpConnectionSet {
  const set = openMcpConnections(...args);
  sets.push(set);
  return set;
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

beforeAll(async () => {
  streamable = await startMcpServer({ transport: "streamable" });
});

afterEach(async () => {
  await Promise.all(sets.map((set) => set.close()));
  sets = [];
});

afterAll(async () => {
  await streamable.close();
  await outbound.close();
});

describe("MCP connections (Streamable HTTP)", () => {
  it("lists tools namespaced by server, with schemas and read-only hints", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, options);

    const { tools, failures } = await set.listTools();

    expect(failures).toEqual([]);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "calc__add",
      "calc__echo",
      "calc__fail",
      "calc__lorem",
      "calc__slow",
      "calc__write_note",
    ]);
    const add = tools.find((tool) => tool.name === "calc__add");
    expect(add).toMatchObject({
      serverName: "calc",
      toolName: "add",
      description: "Adds two numbers",
      readOnly: true,
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
    });
    expect(add?.inputSchema.required).toEqual(expect.arrayContaining(["a", "b"]));
    expect(tools.find((tool) => tool.name === "calc__write_note")?.readOnly).toBe(false);
    expect(tools.find((tool) => tool.name === "calc__echo")?.readOnly).toBe(false);
    expect(set.transports()).toEqual({ calc: "streamable-http" });
  });

  it("calls tools and returns their text", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, options);

    expect(await set.callTool("calc__add", { a: 2, b: 3 })).toEqual({ content: "5", isError: false });
    expect(await set.callTool("calc__echo", { text: "hello mcp" })).toEqual({ content: "hello mcp", isError: false });
    const before = streamable.notes.length;
    expect(await set.callTool("calc__write_note", { text: "remember" })).toMatchObject({ isError: false });
    expect(streamable.notes.slice(before)).toEqual(["remember"]);
  });

  it("reports a tool error as isError", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, options);

    expect(await set.callTool("calc__fail", {})).toEqual({ content: "the fail tool failed on purpose", isError: true });
  });

  it("reports invalid input, unknown tools and unknown servers as isError", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, options);

    const badInput = await set.callTool("calc__add", { a: "two", b: 3 });
    expect(badInput.isError).toBe(true);
    const notAnObject = await set.callTool("calc__add", "a=1");
    expect(notAnObject).toMatchObject({ isError: true, content: expect.stringContaining("JSON object") });
    const unknownTool = await set.callTool("calc__nope", {});
    expect(unknownTool).toMatchObject({ isError: true, content: expect.stringContaining("nope") });
    const unknownServer = await set.callTool("other__add", { a: 1, b: 2 });
    expect(unknownServer).toEqual({ content: 'Unknown MCP tool "other__add"', isError: true });
  });

  it("turns a slow tool into a timeout error and keeps the connection usable", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, { ...options, callTimeoutMs: 200 });

    const slow = await set.callTool("calc__slow", { ms: 10_000 });

    expect(slow.isError).toBe(true);
    expect(slow.content).toMatch(/timed out after 200 ms/);
    expect(await set.callTool("calc__add", { a: 1, b: 1 })).toEqual({ content: "2", isError: false });
  });

  it("returns promptly with isError when the caller aborts a call", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, options);
    const controller = new AbortController();

    const call = set.callTool("calc__slow", { ms: 20_000 }, controller.signal);
    setTimeout(() => controller.abort(), 100);

    expect(await call).toEqual({ content: "MCP tool call was aborted", isError: true });
  });

  it("does not call anything after close", async () => {
    const set = open([{ name: "calc", url: streamable.url }], noHeaders, options);
    await set.listTools();
    await set.close();

    expect(await set.callTool("calc__add", { a: 1, b: 1 })).toMatchObject({ isError: true });
  });
});

describe("MCP connection headers", () => {
  let guarded: TestMcpServer;

  beforeAll(async () => {
    guarded = await startMcpServer({ transport: "streamable", requiredHeaders: { authorization: "Bearer good" } });
  });

  afterAll(async () => {
    await guarded.close();
  });

  it("sends resolved headers on every request and re-resolves them for a new connection", async () => {
    const server = await startMcpServer({ transport: "streamable" });
    try {
      let version = 0;
      const resolved: string[] = [];
      const resolveHeaders = async (serverName: string) => {
        resolved.push(serverName);
        version += 1;
        return { authorization: `Bearer token-${version}`, "x-tenant": "acme" };
      };

      const first = open([{ name: "svc", url: server.url }], resolveHeaders, options);
      await first.listTools();
      await first.callTool("svc__echo", { text: "a" });
      const firstCount = server.receivedHeaders.length;
      expect(firstCount).toBeGreaterThanOrEqual(3);
      for (const headers of server.receivedHeaders) {
        expect(headers).toMatchObject({ authorization: "Bearer token-1", "x-tenant": "acme" });
      }

      const second = open([{ name: "svc", url: server.url }], resolveHeaders, options);
      await second.callTool("svc__echo", { text: "b" });
      const later = server.receivedHeaders.slice(firstCount);
      expect(later.length).toBeGreaterThan(0);
      for (const headers of later) expect(headers.authorization).toBe("Bearer token-2");
      // Once per connection, not per request.
      expect(resolved).toEqual(["svc", "svc"]);
    } finally {
      await server.close();
    }
  });

  it("connects when the required credentials are sent", async () => {
    const set = open([{ name: "guarded", url: guarded.url }], async () => ({ authorization: "Bearer good" }), options);

    expect(await set.callTool("guarded__add", { a: 20, b: 22 })).toEqual({ content: "42", isError: false });
  });

  it("reports rejected credentials without falling back to SSE", async () => {
    const set = open([{ name: "guarded", url: guarded.url }], async () => ({ authorization: "Bearer bad" }), options);
    const requestsBefore = guarded.receivedHeaders.length;

    const { tools, failures } = await set.listTools();

    expect(tools).toEqual([]);
    expect(failures).toEqual([{ serverName: "guarded", message: expect.stringMatching(/401.*credentials rejected/) }]);
    expect(failures[0].message).not.toContain("Bearer bad");
    const methods = guarded.receivedHeaders.slice(requestsBefore).map((headers) => headers.accept);
    expect(methods.every((accept) => accept !== "text/event-stream")).toBe(true);
  });

  it("reports a failing header resolver as a server failure", async () => {
    const set = open(
      [{ name: "svc", url: streamable.url }],
      async () => {
        throw new Error("vault unavailable");
      },
      options,
    );

    expect((await set.listTools()).failures).toEqual([
      { serverName: "svc", message: expect.stringContaining("vault unavailable") },
    ]);
    expect(await set.callTool("svc__add", { a: 1, b: 2 })).toMatchObject({
      isError: true,
      content: expect.stringContaining("vault unavailable"),
    });
  });
});

describe("MCP fallback to the HTTP+SSE transport", () => {
  let legacy: TestMcpServer;

  beforeAll(async () => {
    legacy = await startMcpServer({ transport: "sse", requiredHeaders: { "x-api-key": "legacy-key" } });
  });

  afterAll(async () => {
    await legacy.close();
  });

  it("falls back to SSE when the server rejects the Streamable HTTP POST, sending headers on both channels", async () => {
    const set = open([{ name: "old", url: legacy.url }], async () => ({ "x-api-key": "legacy-key" }), options);

    const { tools, failures } = await set.listTools();

    expect(failures).toEqual([]);
    expect(tools.map((tool) => tool.name)).toContain("old__add");
    expect(await set.callTool("old__add", { a: 4, b: 5 })).toEqual({ content: "9", isError: false });
    expect(set.transports()).toEqual({ old: "sse" });
    const eventStreams = legacy.receivedHeaders.filter((headers) => headers.accept === "text/event-stream");
    const posts = legacy.receivedHeaders.filter((headers) => headers["content-type"] === "application/json");
    expect(eventStreams.length).toBeGreaterThan(0);
    expect(posts.length).toBeGreaterThan(1);
    for (const headers of [...eventStreams, ...posts]) expect(headers["x-api-key"]).toBe("legacy-key");
  });
});

describe("unreachable MCP servers", () => {
  let silent: Server;
  let silentUrl: string;

  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it("reports an unreachable server and still lists the others", async () => {
    const set = open(
      [
        { name: "down", url: await closedPortUrl() },
        { name: "calc", url: streamable.url },
      ],
      noHeaders,
      options,
    );

    const { tools, failures } = await set.listTools();

    expect(failures).toEqual([{ serverName: "down", message: expect.stringMatching(/fetch failed|ECONNREFUSED/) }]);
    expect(tools.length).toBe(6);
    expect(tools.every((tool) => tool.serverName === "calc")).toBe(true);
    const call = await set.callTool("down__add", { a: 1, b: 2 });
    expect(call).toMatchObject({ isError: true, content: expect.stringContaining('MCP server "down" is unavailable') });
  });

  it("gives up connecting after the connect timeout", async () => {
    const set = open([{ name: "silent", url: silentUrl }], noHeaders, { ...options, connectTimeoutMs: 300 });

    const { failures } = await set.listTools();

    expect(failures).toEqual([{ serverName: "silent", message: "connection timed out after 300 ms" }]);
    expect(await set.callTool("silent__add", { a: 1, b: 2 })).toMatchObject({ isError: true });
  });
});
