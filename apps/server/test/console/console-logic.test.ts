import type { SessionDelta, SessionLogEvent } from "@agent-platform/sdk";
import { describe, expect, it } from "vitest";
import { draftOf, modelOf, paramsOf, schemaOf, toolsOf } from "../../../console/src/agents/editor/draft.js";
import { addDeltas, settleReplies } from "../../../console/src/sessions/live-reply.js";

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
