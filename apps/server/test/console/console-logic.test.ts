import type { SessionDelta, SessionLogEvent } from "@agent-platform/sdk";
import { describe, expect, it } from "vitest";
import { draftOf, modelOf, paramsOf, schemaOf, toolsOf } from "../../../console/src/agents/editor/draft.js";
import {
  guardrailDraftOf,
  guardrailErrors,
  guardrailOf,
  missingSettings,
  newGuardrailDraft,
} from "../../../console/src/agents/editor/guardrail-draft.js";
import { decisionEffect } from "../../../console/src/guardrails/describe.js";
import { parseRetrieved } from "../../../console/src/sessions/entries/retrieved.js";
import { addDeltas, settleReplies } from "../../../console/src/sessions/live-reply.js";
import { timelineRows } from "../../../console/src/sessions/timeline-rows.js";

// The console's dense pure logic, unit-tested (its pages are tested in Chromium by the other files here).

const delta = (afterSeq: number, call: number, kind: SessionDelta["kind"], text: string, extra = {}): SessionDelta => ({
  type: "agent.delta",
  afterSeq,
  call,
  kind,
  delta: text,
  ...extra,
});
const entry = (seq: number, type: string) =>
  ({ seq, type, id: `evt_${seq}`, createdAt: "" }) as unknown as SessionLogEvent;

describe("live replies from deltas", () => {
  it("adds fragments per model call and kind, tool inputs per call id", () => {
    let replies = addDeltas([], [delta(4, 1, "text", "Hel"), delta(4, 1, "reasoning", "hmm")]);
    replies = addDeltas(replies, [
      delta(4, 1, "text", "lo"),
      delta(4, 1, "tool_input", '{"q":', { toolCallId: "c1", toolName: "search" }),
      delta(4, 1, "tool_input", '"x"}', { toolCallId: "c1", toolName: "search" }),
    ]);
    expect(replies).toEqual([
      {
        key: "4:1",
        afterSeq: 4,
        call: 1,
        text: "Hello",
        reasoning: "hmm",
        tools: [{ id: "c1", name: "search", input: '{"q":"x"}' }],
      },
    ]);
  });

  it("drops a call's reply once its entries (or the turn's end) arrive, not when a user writes meanwhile", () => {
    const replies = addDeltas([], [delta(4, 1, "text", "first"), delta(7, 2, "text", "second")]);
    expect(settleReplies(replies, [entry(8, "user.message")])).toBe(replies);
    expect(settleReplies(replies, [entry(5, "agent.message"), entry(6, "agent.usage")]).map((r) => r.key)).toEqual([
      "7:2",
    ]);
    expect(settleReplies(replies, [entry(9, "session.status_idle")])).toEqual([]);
  });

  it("takes a withdrawn reply's text back at once and ignores late fragments of it", () => {
    let replies = addDeltas([], [delta(4, 1, "text", "the key is AKIA"), delta(4, 1, "reasoning", "r")]);
    replies = addDeltas(replies, [
      { type: "agent.delta_withdrawn", afterSeq: 4, call: 1, reason: "guardrail_blocked" },
      delta(4, 1, "text", "IOSFODNN7EXAMPLE"),
    ]);
    expect(replies).toEqual([
      { key: "4:1", afterSeq: 4, call: 1, text: "", reasoning: "", tools: [], withdrawn: "guardrail_blocked" },
    ]);
    // Once the turn's entries arrive, the withdrawn row goes like any other.
    expect(settleReplies(replies, [entry(5, "agent.usage"), entry(6, "session.guardrail")])).toEqual([]);
  });
});

describe("guardrails in the editor and the log", () => {
  it("round-trips each check through the form's rows, leaving out empty settings", () => {
    const guardrails = [
      {
        name: "cards",
        stage: "input",
        check: {
          type: "pii",
          kinds: ["email", "card_number"],
          patterns: [{ name: "order_id", pattern: "ORD-\\d+", flags: "is" }],
          phoneRegion: "US",
        },
        action: "redact",
        keepOriginal: true,
      },
      { stage: "output", check: { type: "secrets", entropy: false }, action: "block" },
      { stage: "tool_result", check: { type: "prompt_injection", threshold: 4 }, action: "flag" },
      { stage: "output", check: { type: "length", maxChars: 4000 }, action: "block" },
      { stage: "input", check: { type: "language", allow: ["eng", "fra"], minChars: 20 }, action: "flag" },
      {
        stage: "input",
        check: { type: "moderation", categories: ["harassment"], threshold: 0.4 },
        action: "block",
        name: "mod",
      },
      {
        stage: "output",
        check: { type: "llm_judge", rubric: "Polite.", model: "openai/gpt-5", threshold: 0.7 },
        action: "flag",
      },
    ] as const;
    for (const guardrail of guardrails) {
      expect(guardrailOf(guardrailDraftOf(guardrail as never))).toEqual(guardrail);
    }
    const draft = {
      ...newGuardrailDraft(),
      type: "secrets" as const,
      action: "flag" as const,
      stage: "output" as const,
    };
    expect(guardrailOf(draft)).toEqual({ stage: "output", check: { type: "secrets" }, action: "flag" });
    // keepOriginal only where the contract allows it (redact on input), whatever the box said before.
    expect(guardrailOf({ ...newGuardrailDraft(), keepOriginal: true, stage: "output" })).not.toHaveProperty(
      "keepOriginal",
    );
    // A number typed wrong is sent as typed, so that the API's field error names it.
    expect(guardrailOf({ ...newGuardrailDraft(), type: "length", maxChars: "lots" }).check).toEqual({
      type: "length",
      maxChars: "lots",
    });
    expect([...missingSettings({ ...newGuardrailDraft(), type: "length" }).keys()]).toEqual(["check.maxChars"]);
  });

  it("sends each of the API's errors to the guardrail and setting it names", () => {
    const { byGuardrail, other } = guardrailErrors([
      "0.check.patterns.1.pattern: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
      "1.name: guardrail names must be unique",
      'Guardrail 2 (input.moderation): moderation: Provider "openai" is not configured: set OPENAI_API_KEY',
      "Array must contain at most 32 element(s)",
    ]);
    expect(byGuardrail.get(0)?.get("check.patterns.1.pattern")).toEqual([
      "error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    ]);
    expect(byGuardrail.get(1)?.get("name")).toEqual(["guardrail names must be unique"]);
    expect(byGuardrail.get(2)?.get("check.model")).toEqual([
      'moderation: Provider "openai" is not configured: set OPENAI_API_KEY',
    ]);
    expect(other).toEqual(["Array must contain at most 32 element(s)"]);
  });

  it("joins decisions to the message or tool use they checked, and says what each did", () => {
    const decision = (seq: number, extra: Record<string, unknown>) =>
      ({
        seq,
        type: "session.guardrail",
        id: `evt_${seq}`,
        createdAt: "",
        guardrail: "g",
        check: "pii",
        triggered: true,
        spans: [{ start: 0, end: 4, kind: "email" }],
        ...extra,
      }) as unknown as SessionLogEvent;
    const rows = timelineRows([
      { ...entry(1, "user.message"), content: [{ type: "text", text: "[REDACTED:email]" }] } as never,
      decision(2, { stage: "input", action: "redact", targetSeq: 1, originalKept: false }),
      { ...entry(3, "agent.tool_use"), id: "tu_1", name: "web_fetch", input: {} } as never,
      { ...entry(4, "agent.tool_result"), toolUseId: "tu_1", content: [], isError: true } as never,
      decision(5, { stage: "tool_result", action: "block", toolUseId: "tu_1", targetSeq: 4 }),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(["message", "event", "tool", "event"]);
    const [message, , tool] = rows as [{ guardrails: unknown[] }, unknown, { guardrails: unknown[] }];
    expect(message.guardrails).toHaveLength(1);
    expect(tool.guardrails).toHaveLength(1);
    expect(decisionEffect(decision(2, { stage: "input", action: "redact", targetSeq: 1 }) as never)).toBe(
      "The message #1 is stored with 1 finding redacted: neither the log nor the model has them.",
    );
    expect(
      decisionEffect(decision(6, { stage: "input", action: "redact", targetSeq: 1, originalKept: true }) as never),
    ).toBe("The log keeps the message #1 as sent; the model was sent it with 1 finding redacted.");
    expect(decisionEffect(decision(7, { stage: "output", action: "flag", triggered: false }) as never)).toMatch(
      /^Passed/,
    );
  });

  it("reads knowledge_search and memory_search results as passages, and leaves anything else as text", () => {
    const citation = {
      citation: "[1]",
      chunkId: "kbchunk_1",
      documentId: "kbdoc_1",
      title: "Refunds",
      offsets: [0, 10],
      text: "Refunds…",
      score: 0.03,
      foundBy: ["semantic"],
    };
    expect(parseRetrieved("knowledge_search", JSON.stringify({ results: [citation] }))).toEqual({
      tool: "knowledge_search",
      citations: [citation],
    });
    expect(parseRetrieved("knowledge_search", JSON.stringify({ results: [], note: "No passage" }))).toBeDefined();
    const finding = { store: "notes", key: "a", snippet: "b", bytes: 1, score: 0.5, foundBy: ["fulltext"] };
    expect(parseRetrieved("memory_search", JSON.stringify({ results: [finding] }))).toBeDefined();
    expect(parseRetrieved("memory_search", JSON.stringify({ results: [{ key: "a", snippet: "b" }] }))).toBeUndefined();
    expect(parseRetrieved("knowledge_search", "not json")).toBeUndefined();
    expect(parseRetrieved("knowledge_search", JSON.stringify({ results: [{ title: 1 }] }))).toBeUndefined();
    expect(parseRetrieved("web_fetch", JSON.stringify({ results: [citation] }))).toBeUndefined();
  });
});

describe("the agent editor's draft", () => {
  it("round-trips an agent: tools as rows, permissions and metadata as pairs, the model's settings", () => {
    const agent = {
      name: "A",
      model: { id: "openai/gpt-5", temperature: 0.2, reasoning: { effort: "low" } },
      system: "s",
      tools: [
        "web_fetch",
        {
          type: "custom",
          name: "lookup",
          description: "d",
          inputSchema: { type: "object", properties: { id: { type: "string", description: "x" } }, required: ["id"] },
        },
      ],
      toolPermissions: { web_fetch: "always_ask" },
      metadata: { team: "a" },
    } as unknown as Parameters<typeof draftOf>[0];
    const draft = draftOf(agent);
    expect(draft.builtins).toEqual(["web_fetch"]);
    expect(draft.custom[0]!.params).toEqual([{ name: "id", type: "string", description: "x", required: true }]);
    expect(draft.permissions).toEqual([{ tool: "web_fetch", policy: "always_ask" }]);
    expect(modelOf(draft.model)).toEqual({ id: "openai/gpt-5", temperature: 0.2, reasoning: { effort: "low" } });
    expect(toolsOf(draft)).toEqual(agent!.tools);
    expect(modelOf({ ...draft.model, temperature: "", effort: "" })).toBe("openai/gpt-5");
  });

  it("keeps a schema the rows cannot show as JSON, and refuses JSON that does not parse", () => {
    const nested = {
      type: "object",
      properties: { filter: { type: "object", properties: { a: { type: "string" } } } },
    };
    expect(paramsOf(nested)).toBeUndefined();
    expect(
      paramsOf({ type: "object", properties: { kind: { type: "string", enum: ["a"] } } } as never),
    ).toBeUndefined();
    const draft = draftOf({
      name: "A",
      model: "builtin/echo",
      tools: [{ type: "custom", name: "f", description: "d", inputSchema: nested }],
    } as never);
    expect(draft.custom[0]!.schemaJson).toBe(JSON.stringify(nested, null, 2));
    expect(toolsOf(draft)[0]).toMatchObject({ inputSchema: nested });
    expect(() => toolsOf({ ...draft, custom: [{ ...draft.custom[0]!, schemaJson: "{ not json" }] })).toThrow(
      /input schema of f is not valid JSON/,
    );
    expect(schemaOf([{ name: " n ", type: "integer", description: "", required: false }])).toEqual({
      type: "object",
      properties: { n: { type: "integer" } },
    });
  });
});
