import { BUILTIN_TOOLS } from "@agent-platform/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KNOWLEDGE_READ_MAX_CHARS } from "../../src/runtime/tools/builtin/knowledge-read.js";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { api } from "./support.js";

// knowledge_read driven through real sessions: the fake OpenAI-compatible model asks for the tool, the worker runs it,
// and the log holds the results the model was sent.

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
const docs: Record<"short" | "long" | "hidden" | "foreign", { id: string; content: string }> = {} as never;
let allowed: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
  const base = t.tenant.base;
  allowed = (await api(t, t.tenant, "post", `${base}/knowledge-bases`, { name: "Product docs" })).id;
  const hidden = (await api(t, t.tenant, "post", `${base}/knowledge-bases`, { name: "HR files" })).id;
  const other = await t.newTenant();
  const foreign = (await api(t, other, "post", `${other.base}/knowledge-bases`, { name: "Foreign" })).id;
  const add = async (tenant: typeof other, kb: string, title: string, content: string) => ({
    id: (await api(t, tenant, "post", `${tenant.base}/knowledge-bases/${kb}/documents`, { title, content })).id,
    content,
  });
  docs.short = await add(t.tenant, allowed, "Refund policy", "# Refunds\n\nWithin 30 days. Ünïcödé ✓ 👋\n");
  // longer than one part, with astral characters so that offsets count characters, not UTF-16 units
  docs.long = await add(
    t.tenant,
    allowed,
    "Handbook",
    Array.from({ length: 15_000 }, (_, i) => `line ${String(i).padStart(5, "0")} 👋\n`).join(""),
  );
  docs.hidden = await add(t.tenant, hidden, "Salaries", "Confidential");
  docs.foreign = await add(other, foreign, "Elsewhere", "Not yours");
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const offered = (request: FakeRequest) =>
  ((request.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

/** Runs one turn in which the model calls knowledge_read once per input, then answers; returns the tool results. */
async function readThroughSession(inputs: Record<string, unknown>[], agentExtra: Record<string, unknown> = {}) {
  fake.enqueue(
    { toolCalls: inputs.map((input) => ({ name: "knowledge_read", arguments: input })) },
    { text: "Read it." },
  );
  const agent = await createAgent(t, t.tenant, {
    model: MODEL,
    tools: ["knowledge_search", "knowledge_read"],
    knowledgeBases: [allowed],
    ...agentExtra,
  });
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("read the docs")] });
  const log = await waitForIdle(t, t.tenant, session.id);
  const results = log.filter((e: LogEntry) => e.type === "agent.tool_result");
  expect(results).toHaveLength(inputs.length);
  return results.map((r: LogEntry) => ({ isError: r.isError as boolean, text: r.content[0].text as string }));
}

describe("knowledge_read", () => {
  it("is offered next to knowledge_search when the agent has knowledge bases, read-only", async () => {
    const [result] = await readThroughSession([{ documentId: docs.short.id }]);
    expect(offered(chatCalls()[0]!)).toEqual(["knowledge_search", "knowledge_read"]);
    expect(BUILTIN_TOOLS.knowledge_read.readOnly).toBe(true);
    expect(result).toEqual({ isError: false, text: docs.short.content });
    // the model was sent the whole document as the tool result
    const toolMessage = (chatCalls()[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    );
    expect(toolMessage?.content).toContain("Within 30 days. Ünïcödé ✓ 👋");
  });

  it("is not offered without knowledge bases", async () => {
    fake.enqueue({ text: "Nothing to read." });
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["knowledge_read", "artifact_write"] });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hi")] });
    await waitForIdle(t, t.tenant, session.id);
    expect(offered(chatCalls()[0]!)).toEqual(["artifact_write"]);
  });

  it("cuts a long document with a note giving the offset of the rest, and reads on from it", async () => {
    const chars = [...docs.long.content];
    expect(chars.length).toBeGreaterThan(KNOWLEDGE_READ_MAX_CHARS);
    const [first, second] = await readThroughSession([
      { documentId: docs.long.id },
      { documentId: docs.long.id, offset: KNOWLEDGE_READ_MAX_CHARS },
    ]);
    const part1 = chars.slice(0, KNOWLEDGE_READ_MAX_CHARS).join("");
    expect(first!.isError).toBe(false);
    expect(first!.text.startsWith(part1)).toBe(true);
    expect(first!.text.slice(part1.length)).toBe(
      `\n\n[cut: characters 0 to ${KNOWLEDGE_READ_MAX_CHARS} of ${chars.length} of document ${docs.long.id} ` +
        `("Handbook"); call knowledge_read with offset ${KNOWLEDGE_READ_MAX_CHARS} to read on]`,
    );
    const part2 = chars.slice(KNOWLEDGE_READ_MAX_CHARS).join("");
    expect(second!.text).toBe(
      `${part2}\n\n[cut: characters ${KNOWLEDGE_READ_MAX_CHARS} to ${chars.length} of ${chars.length} of document ` +
        `${docs.long.id} ("Handbook"); this is the end of the document]`,
    );
    expect(part1 + part2).toBe(docs.long.content);
  });

  it("answers the same error for a document of another base, of another project, or unknown", async () => {
    const results = await readThroughSession([
      { documentId: docs.hidden.id },
      { documentId: docs.foreign.id },
      { documentId: "kbdoc_00000000000000000000000000" },
    ]);
    const ids = [docs.hidden.id, docs.foreign.id, "kbdoc_00000000000000000000000000"];
    expect(results).toEqual(
      ids.map((id) => ({ isError: true, text: `No document ${id} in the knowledge bases this agent may use` })),
    );
    for (const r of results) {
      expect(r.text).not.toContain("Confidential");
      expect(r.text).not.toContain("Not yours");
    }
  });

  it("answers bad input and an offset past the end with error results", async () => {
    const [missing, negative, extra, past] = await readThroughSession([
      {},
      { documentId: docs.short.id, offset: -1 },
      { documentId: docs.short.id, path: "x" },
      { documentId: docs.short.id, offset: 10_000 },
    ]);
    for (const r of [missing, negative, extra]) {
      expect(r!.isError).toBe(true);
      expect(r!.text).toContain("Invalid input for knowledge_read");
    }
    expect(past).toEqual({ isError: true, text: expect.stringContaining("offset 10000 is past its end") });
  });
});
