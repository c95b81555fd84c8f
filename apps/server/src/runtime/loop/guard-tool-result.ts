import type { AgentConfig } from "@agent-platform/contract";
import {
  GUARDRAIL_ENTRY,
  type GuardrailDecision,
  guardrailsAt,
  type NamedGuardrail,
  screenOffline,
  sessionGuardrails,
} from "../../guardrails/index.js";
import type { CommittedUsage, NewEvent } from "../../sessions/index.js";
import type { ToolResult } from "../tools/types.js";
import { errorEvent, idleEvent, toolResultEvent } from "./events.js";
import { GuardrailModelCalls, screenWithModels } from "./guardrail-calls.js";
import type { ToolUseState } from "./log-state.js";
import { idleStatus, type SessionPass } from "./pass.js";

/** What the `tool_result` guardrails made of one tool result. */
export interface ToolResultScreen {
  /** The result to write and send on (redacted, or withheld when blocked). */
  result: ToolResult;
  decisions: GuardrailDecision[];
  /** The turn ends after this result: a guardrail blocked it, or a check could not run. */
  stop?: { events: NewEvent[]; stopReason: "guardrail_blocked" | "error" };
  usage?: CommittedUsage;
}

/** The session's `tool_result` guardrails (none: the step runs as without guardrails). */
export async function toolResultGuardrails(pass: SessionPass, config: AgentConfig): Promise<NamedGuardrail[]> {
  return guardrailsAt(sessionGuardrails(pass.settings.guardrails, config), "tool_result");
}

/**
 * The `tool_result` stage: a tool's text (web pages, MCP results, files…) is checked before it is written to the log
 * and so before the model sees it. `redact` writes the redacted text (the media parts of an MCP result are kept);
 * `block` writes a note in its place (the text is neither stored nor sent) and ends the turn; `flag` only records.
 * Error results are checked too: they carry text from outside as well.
 */
export async function screenToolResult(
  pass: SessionPass,
  config: AgentConfig,
  guardrails: readonly NamedGuardrail[],
  use: ToolUseState,
  result: ToolResult,
  signal: AbortSignal,
): Promise<ToolResultScreen> {
  const offline = screenOffline(guardrails, "tool_result", result.content, { toolUseId: use.id, beforeStore: true });
  const calls = new GuardrailModelCalls(pass, pass.settings.model ?? config.model, signal);
  const withModels = offline.blocked
    ? { decisions: [] }
    : await screenWithModels(calls, guardrails, "tool_result", offline.text, { toolUseId: use.id });
  const decisions = [...offline.decisions, ...withModels.decisions];
  const blockedBy = offline.decisions.find((d) => d.action === "block")?.guardrail ?? withModels.blockedBy;
  const blocked = blockedBy !== undefined;
  const failed = withModels.failed;
  const usage = calls.settlement();
  if (failed || blocked) {
    const note = failed
      ? `Withheld: a guardrail could not check this result (${failed.message})`
      : `Withheld: guardrail "${blockedBy}" blocked this result`;
    return {
      result: { content: note, isError: true },
      decisions,
      stop: failed
        ? { events: [errorEvent(failed.code, failed.message), idleEvent("error")], stopReason: "error" }
        : { events: [idleEvent("guardrail_blocked")], stopReason: "guardrail_blocked" },
      ...(usage ? { usage } : {}),
    };
  }
  const redacted = offline.text !== result.content;
  const screened: ToolResult = redacted
    ? {
        content: offline.text,
        isError: result.isError,
        ...(result.parts
          ? { parts: [{ type: "text", text: offline.text }, ...result.parts.filter((p) => p.type !== "text")] }
          : {}),
      }
    : result;
  return { result: screened, decisions, ...(usage ? { usage } : {}) };
}

/**
 * Writes a screened result with its decisions (which name it by `seq`), in one commit. When the screen stops the turn,
 * the tool uses of the step not run yet are closed with a note (so that no later turn runs them) and the turn ends.
 * Says whether the turn ended.
 */
export async function commitScreenedResult(
  pass: SessionPass,
  use: ToolUseState,
  screen: ToolResultScreen,
  notRun: readonly ToolUseState[],
): Promise<boolean> {
  const { result, stop, usage } = screen;
  const written = toolResultEvent(use, result.content, result.isError, result.parts);
  const decided = (head: number): NewEvent[] =>
    screen.decisions.map((decision) => ({ type: GUARDRAIL_ENTRY, payload: { ...decision, targetSeq: head + 1 } }));
  if (!stop) {
    await pass.commit((head) => ({ events: [written, ...decided(head)], ...(usage ? { usage } : {}) }));
    return false;
  }
  const closed = notRun.map((u) => toolResultEvent(u, "Not run: a guardrail ended the turn.", true));
  await pass.commit(
    (head) => ({
      events: [written, ...decided(head), ...closed, ...stop.events],
      status: idleStatus(stop.stopReason),
      ...(usage ? { usage } : {}),
    }),
    { mayEndTurn: true },
  );
  return true;
}
