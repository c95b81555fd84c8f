import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import type { MemoryMount, RuntimeTool, ToolRunContext } from "../../src/runtime/tools/types.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { agentConfig, api, runContext, seedSession, toolNamed } from "./support.js";

let t: TestApp;
let notes: MemoryMount;
let handbook: MemoryMount;

const agent = agentConfig({ tools: ["memory_list", "memory_read", "memory_search", "memory_write"] });

beforeAll(async () => {
  t = await startTestApp();
  const base = t.tenant.base;
  const a = await api(t, t.tenant, "post", `${base}/memory-stores`, { name: "notes" });
  const b = await api(t, t.tenant, "post", `${base}/memory-stores`, { name: "handbook" });
  notes = { memoryStoreId: a.id, memoryStoreName: "notes", mode: "read-write" };
  handbook = { memoryStoreId: b.id, memoryStoreName: "handbook", mode: "read-only" };
  await api(t, t.tenant, "put", `${base}/memory-stores/${b.id}/entries`, {
    key: "policies/travel.md",
    content: "Book trains for trips under 600 km.",
  });
  await api(t, t.tenant, "put", `${base}/memory-stores/${b.id}/entries`, {
    key: "policies/expenses.md",
    content: "Receipts within 30 days.",
  });
});

afterAll(async () => {
  await t?.close();
});

async function toolsFor(mounts: MemoryMount[]): Promise<{ tools: RuntimeTool[]; run: ToolRunContext }> {
  const session = await seedSession(t, t.tenant, { resources: mounts });
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent });
  return { tools, run: runContext(t, session, agent) };
}

describe("memory tools", () => {
  it("are offered only with mounts; memory_write only with a read-write mount", async () => {
    expect((await toolsFor([])).tools).toEqual([]);
    const readOnly = await toolsFor([handbook]);
    expect(readOnly.tools.map((x) => x.name)).toEqual(["memory_list", "memory_read", "memory_search"]);
    expect(readOnly.tools.every((x) => x.readOnly && x.origin === "builtin")).toBe(true);
    const both = await toolsFor([notes, handbook]);
    expect(both.tools.map((x) => x.name)).toEqual(["memory_list", "memory_read", "memory_search", "memory_write"]);
    const write = toolNamed(both.tools, "memory_write");
    expect(write.readOnly).toBe(false);
    // The schema offers only the writable stores.
    expect(write.inputSchema).toMatchObject({ properties: { store: { enum: ["notes"] } } });
    expect(toolNamed(both.tools, "memory_read").inputSchema).toMatchObject({
      properties: { store: { enum: ["notes", "handbook"] } },
      required: ["store", "key"],
    });
  });

  it("reads and searches a read-only mount, and refuses to write to it", async () => {
    const { tools, run } = await toolsFor([notes, handbook]);
    const read = await toolNamed(tools, "memory_read").execute!({ store: "handbook", key: "policies/travel.md" }, run);
    expect(read).toEqual({ isError: false, content: "Book trains for trips under 600 km." });

    const search = await toolNamed(tools, "memory_search").execute!({ query: "TRAINS km" }, run);
    expect(search.isError).toBe(false);
    expect(JSON.parse(search.content)).toEqual({
      results: [
        {
          store: "handbook",
          key: "policies/travel.md",
          snippet: "Book trains for trips under 600 km.",
          bytes: 35,
          score: expect.any(Number),
          foundBy: ["fulltext"],
          updatedAt: expect.any(String),
        },
      ],
    });

    const refused = await toolNamed(tools, "memory_write").execute!(
      { store: "handbook", key: "policies/travel.md", content: "Fly everywhere." },
      run,
    );
    expect(refused).toEqual({
      isError: true,
      content: 'Memory store "handbook" is mounted read-only in this session: it cannot be written',
    });
    const again = await toolNamed(tools, "memory_read").execute!({ store: "handbook", key: "policies/travel.md" }, run);
    expect(again.content).toBe("Book trains for trips under 600 km.");
  });

  it("writes to a read-write mount; the entry is then listed, read and found", async () => {
    const { tools, run } = await toolsFor([notes, handbook]);
    const write = toolNamed(tools, "memory_write");
    expect(await write.execute!({ key: "todo.md", content: "- call Ana about the offsite" }, run)).toEqual({
      isError: false,
      content: 'Wrote "todo.md" in memory store "notes" (28 bytes).',
    });
    expect(await write.execute!({ store: "notes", key: "todo.md", content: "- done" }, run)).toMatchObject({
      isError: false,
    });

    const read = await toolNamed(tools, "memory_read").execute!({ store: "notes", key: "todo.md" }, run);
    expect(read.content).toBe("- done");

    const list = JSON.parse((await toolNamed(tools, "memory_list").execute!({}, run)).content);
    expect(list.stores.map((s: { store: string }) => s.store)).toEqual(["notes", "handbook"]);
    expect(list.stores[0].entries).toEqual(
      expect.arrayContaining([{ key: "todo.md", bytes: 6, updatedAt: expect.any(String) }]),
    );
    const prefixed = JSON.parse(
      (await toolNamed(tools, "memory_list").execute!({ store: "handbook", prefix: "policies/", limit: 1 }, run))
        .content,
    );
    expect(prefixed).toEqual({
      stores: [
        {
          store: "handbook",
          mode: "read-only",
          entries: [{ key: "policies/expenses.md", bytes: 24, updatedAt: expect.any(String) }],
          more: true,
        },
      ],
    });

    // Visible through the HTTP API too: the tools write the real store.
    const entries = await t.http
      .get(`${t.tenant.base}/memory-stores/${notes.memoryStoreId}/entries`)
      .set(t.tenant.auth);
    expect(entries.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: "todo.md", content: "- done" })]),
    );
  });

  it("answers unknown stores, missing entries and bad keys with error results", async () => {
    const { tools, run } = await toolsFor([notes, handbook]);
    const read = toolNamed(tools, "memory_read");
    expect(await read.execute!({ key: "x.md" }, run)).toEqual({
      isError: true,
      content: "Several memory stores are mounted: name one in `store` (`notes` (read-write), `handbook` (read-only))",
    });
    expect((await read.execute!({ store: "elsewhere", key: "x.md" }, run)).content).toBe(
      'No memory store "elsewhere" is mounted in this session (mounted: `notes` (read-write), `handbook` (read-only))',
    );
    expect(await read.execute!({ store: "notes", key: "absent.md" }, run)).toEqual({
      isError: true,
      content: 'No entry "absent.md" in memory store "notes"',
    });
    const badKey = await toolNamed(tools, "memory_write").execute!({ key: "../escape", content: "x" }, run);
    expect(badKey.isError).toBe(true);
    expect(badKey.content).toContain('Invalid memory key "../escape"');
    expect((await toolNamed(tools, "memory_search").execute!({ query: "  " }, run)).isError).toBe(true);
    const tooBig = await toolNamed(tools, "memory_write").execute!(
      { key: "big.md", content: "x".repeat(200_000) },
      run,
    );
    expect(tooBig.isError).toBe(true);
    expect(tooBig.content).toContain("Memory entry too large");
  });

  it("a mount of a store deleted since fails cleanly", async () => {
    const base = t.tenant.base;
    const gone = await api(t, t.tenant, "post", `${base}/memory-stores`, { name: "short-lived" });
    const mount: MemoryMount = { memoryStoreId: gone.id, memoryStoreName: "short-lived", mode: "read-write" };
    const { tools, run } = await toolsFor([mount]);
    expect((await t.http.delete(`${base}/memory-stores/${gone.id}`).set(t.tenant.auth)).status).toBeLessThan(300);
    const result = await toolNamed(tools, "memory_write").execute!({ key: "a.md", content: "x" }, run);
    expect(result).toEqual({ isError: true, content: `Memory store ${gone.id} was not found` });
  });
});
