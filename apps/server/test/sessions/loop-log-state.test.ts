import { describe, expect, it } from "vitest";
import { buildConversation } from "../../src/runtime/loop/conversation.js";
import { analyzeLog } from "../../src/runtime/loop/log-state.js";
import type { StoredEvent } from "../../src/sessions/index.js";

// The loop's rebuild of a session from its log alone (pure): what to do next, and the conversation a model sees.

function log(...entries: [string, Record<string, unknown>?, string?][]): StoredEvent[] {
  return entries.map(([type, payload, id], i) => ({
    seq: i + 1,
    id: id ?? `evt_${i + 1}`,
    type,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...payload,
  }));
}
const text = (t: string) => ({ content: [{ type: "text", text: t }] });
const usage = (contextSeq: number) => ({ model: "m/x", inputTokens: 1, outputTokens: 1, contextSeq });

describe("next action", () => {
  it("calls the model for a new message, and finishes once answered", () => {
    expect(analyzeLog(log(["user.message", text("hi")])).next).toEqual({ kind: "call_model" });
    const answered = log(
      ["user.message", text("hi")],
      ["session.status_running"],
      ["agent.message", text("hello")],
      ["agent.usage", usage(2)],
    );
    expect(analyzeLog(answered).next).toEqual({ kind: "finish" });
    const closed = [
      ...answered,
      { seq: 5, id: "evt_5", type: "session.status_idle", createdAt: "", stopReason: "end_turn" },
    ];
    expect(analyzeLog(closed).next).toEqual({ kind: "none" });
  });

  it("does nothing on an idle session without new input", () => {
    const idle = log(
      ["user.message", text("hi")],
      ["session.status_running"],
      ["agent.message", text("hello")],
      ["agent.usage", usage(2)],
      ["session.status_idle", { stopReason: "end_turn" }],
    );
    expect(analyzeLog(idle).next).toEqual({ kind: "none" });
    expect(analyzeLog(idle).turnOpen).toBe(false);
  });

  it("answers a message that arrived while the model was answering (after contextSeq)", () => {
    const state = analyzeLog(
      log(
        ["user.message", text("one")],
        ["session.status_running"],
        ["user.message", text("two")],
        ["agent.message", text("answer one")],
        ["agent.usage", usage(2)],
      ),
    );
    expect(state.next).toEqual({ kind: "call_model" });
    expect(state.modelCallsInTurn).toBe(1);
  });

  it("runs tool uses without a result, waits on confirmations, then runs confirmed ones together", () => {
    const base = log(
      ["user.message", text("go")],
      ["session.status_running"],
      ["agent.tool_use", { name: "a", input: {} }, "evt_a"],
      ["agent.tool_use", { name: "b", input: {}, requiresConfirmation: true }, "evt_b"],
      ["agent.custom_tool_use", { name: "c", input: {} }, "evt_c"],
      ["agent.usage", usage(2)],
    );
    const first = analyzeLog(base).next;
    expect(first.kind).toBe("run_tools");
    expect(first.kind === "run_tools" && first.toolUses.map((u) => u.id)).toEqual(["evt_a"]);

    const afterA = [...base, ...log(["agent.tool_result", { toolUseId: "evt_a", ...text("ok"), isError: false }])];
    afterA[afterA.length - 1]!.seq = afterA.length;
    const waiting = analyzeLog(afterA).next;
    expect(waiting).toEqual({
      kind: "await_actions",
      toolUses: expect.any(Array),
      pending: [
        { toolUseId: "evt_b", kind: "confirmation", name: "b" },
        { toolUseId: "evt_c", kind: "custom_tool", name: "c" },
      ],
    });

    const answered = [
      ...afterA,
      { seq: 8, id: "evt_8", type: "user.tool_confirmation", createdAt: "", toolUseId: "evt_b", result: "allow" },
      { seq: 9, id: "evt_9", type: "user.custom_tool_result", createdAt: "", customToolUseId: "evt_c", ...text("c!") },
    ];
    const run = analyzeLog(answered).next;
    expect(run.kind === "run_tools" && run.toolUses.map((u) => [u.id, u.confirmation?.allow])).toEqual([
      ["evt_b", true],
    ]);
  });

  it("treats an interrupt as effective only when there was work to stop", () => {
    const idleThenInterrupt = log(
      ["user.message", text("hi")],
      ["session.status_running"],
      ["agent.message", text("hello")],
      ["agent.usage", usage(2)],
      ["session.status_idle", { stopReason: "end_turn" }],
      ["user.interrupt"],
      ["user.message", text("again")],
    );
    expect(analyzeLog(idleThenInterrupt).next).toEqual({ kind: "call_model" });

    const interruptedTurn = log(
      ["user.message", text("hi")],
      ["session.status_running"],
      ["agent.tool_use", { name: "slow", input: {} }, "evt_slow"],
      ["agent.usage", usage(2)],
      ["user.interrupt"],
    );
    const next = analyzeLog(interruptedTurn).next;
    expect(next.kind).toBe("interrupt");
    expect(next.kind === "interrupt" && next.unresolved.map((u) => u.id)).toEqual(["evt_slow"]);

    const waitingThenInterrupt = log(
      ["user.message", text("hi")],
      ["session.status_running"],
      ["agent.mcp_tool_use", { serverName: "s", name: "t", input: {}, requiresConfirmation: true }, "evt_t"],
      ["agent.usage", usage(2)],
      ["session.status_idle", { stopReason: "requires_action" }],
      ["user.interrupt"],
    );
    const cancel = analyzeLog(waitingThenInterrupt).next;
    expect(cancel.kind === "interrupt" && cancel.unresolved.map((u) => u.id)).toEqual(["evt_t"]);

    const messageThenInterrupt = log(["user.message", text("hi")], ["user.interrupt"]);
    expect(analyzeLog(messageThenInterrupt).next.kind).toBe("interrupt");
  });
});

describe("conversation", () => {
  it("places each model step after the entries it saw, with its tool results right after it", () => {
    const events = log(
      ["user.message", text("one")],
      ["session.status_running"],
      ["user.message", text("two")],
      ["agent.message", text("calling")],
      ["agent.mcp_tool_use", { serverName: "docs", name: "search", input: { q: "x" } }, "evt_use"],
      ["agent.usage", usage(2)],
      ["agent.mcp_tool_result", { toolUseId: "evt_use", ...text("found"), isError: false }],
    );
    const state = analyzeLog(events);
    expect(buildConversation(events, state.steps)).toEqual([
      { role: "user", text: "one" },
      { role: "assistant", text: "calling", toolCalls: [{ id: "evt_use", name: "docs__search", input: { q: "x" } }] },
      { role: "tool", results: [{ toolCallId: "evt_use", toolName: "docs__search", output: "found", isError: false }] },
      { role: "user", text: "two" },
    ]);
  });
});
