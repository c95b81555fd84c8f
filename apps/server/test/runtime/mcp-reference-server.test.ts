import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound } from "../../src/lib/outbound/index.js";
import { type McpConnectionOptions, openMcpConnections } from "../../src/runtime/mcp/mcp-connections.js";
import { type ReferenceMcpServer, startReferenceMcpServer } from "../support/reference-mcp-server.js";

const outbound = createOutbound({ allowCidrs: "127.0.0.0/8" });
const options: McpConnectionOptions = { connectTimeoutMs: 10_000, callTimeoutMs: 10_000, fetch: outbound.fetch };
const noHeaders = async () => ({});
let everything: ReferenceMcpServer;

beforeAll(async () => {
  everything = await startReferenceMcpServer();
});
afterAll(async () => {
  await everything?.close();
  await outbound.close();
});

describe("MCP connections against the official reference server", () => {
  it("ends the session it opened with the protocol's DELETE when the set closes", async () => {
    const before = { opened: everything.initializeCount(), ended: everything.deleteCount() };
    const set = openMcpConnections([{ name: "everything", url: everything.url }], noHeaders, options);
    await set.listTools();
    expect(await set.callTool("everything__get-sum", { a: 2, b: 3 })).toMatchObject({ isError: false });
    await set.close();
    expect(everything.initializeCount() - before.opened).toBe(1);
    expect(everything.deleteCount() - before.ended).toBe(1);
    const deleted = everything.requests.filter((r) => r.method === "DELETE").at(-1)!;
    expect(deleted.headers["mcp-session-id"]).toMatch(/.+/);
  });

  it("does not offer a tool that can only run as an MCP task", async () => {
    const set = openMcpConnections([{ name: "everything", url: everything.url }], noHeaders, options);
    const { tools, failures } = await set.listTools();
    await set.close();
    expect(failures).toEqual([]);
    const names = tools.map((t) => t.name);
    expect(names).toContain("everything__get-tiny-image");
    expect(names).not.toContain("everything__simulate-research-query");
  });
});
