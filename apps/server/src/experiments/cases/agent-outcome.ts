import type { ModelCatalogue } from "../../models/index.js";
import { qualifyMcpToolName } from "../../runtime/mcp/index.js";
import type { ToolCall } from "../../scoring/trajectory.js";
import type { StoredEvent } from "../../sessions/index.js";
import type { TaskOutcome } from "./case-outcome.js";

/**
 * What an agent case's log says: the last assistant message is the output (spec rule 3); the turn's stop reason tells
 * whether the case completed (`end_turn`) or is an error (turn cap, time cap, loop error, a tool nobody could answer),
 * with the session's own error message when it wrote one. Usage and cost add up the `agent.usage` entries, the calls
 * of `session.compaction` entries and those of `session.outcome_evaluation` entries (an outcome's judge calls).
 */
export function agentOutcome(
  sessionId: string,
  log: readonly StoredEvent[],
  limits: { maxTurns: number; timeoutMs: number; timedOut: boolean },
  catalogue: ModelCatalogue,
): TaskOutcome {
  let output: string | null = null;
  let stopReason: string | null = null;
  let sessionError: string | null = null;
  const usage = { inputTokens: 0, outputTokens: 0 };
  let costUsd: number | null = 0;
  const toolCalls: ToolCall[] = [];
  let modelCalls = 0;
  for (const event of log) {
    if (event.type === "agent.message") output = textOf(event.content);
    else if (TOOL_USES.has(event.type)) toolCalls.push({ name: toolName(event), input: event.input ?? {} });
    else if (event.type === "session.status_idle" && stopReason === null) stopReason = String(event.stopReason);
    else if (event.type === "session.error" && sessionError === null) sessionError = errorText(event.error);
    else if (event.type === "agent.usage" || event.type === "session.compaction" || gradedWithCalls(event)) {
      // A compaction's summarising call, and an outcome's judge calls, are model calls of the case like the others.
      if (event.type === "agent.usage") modelCalls++;
      const record = (event.type === "agent.usage" ? event : event.usage) as Record<string, unknown> | undefined;
      const call = { inputTokens: Number(record?.inputTokens) || 0, outputTokens: Number(record?.outputTokens) || 0 };
      usage.inputTokens += call.inputTokens;
      usage.outputTokens += call.outputTokens;
      // The entry's own cost (priced when it was written, by the same function); older entries are priced now.
      const cost =
        record && "costUsd" in record
          ? (record.costUsd as number | null)
          : typeof record?.model === "string"
            ? catalogue.estimateCostUsd(record.model, call)
            : null;
      costUsd = costUsd === null || cost === null ? null : (Math.round(costUsd * 1e6) + Math.round(cost * 1e6)) / 1e6;
    }
  }
  const error = caseError(stopReason, sessionError, limits);
  return { output: error ? output : (output ?? ""), error, usage, costUsd, sessionId, toolCalls, modelCalls };
}

const TOOL_USES: ReadonlySet<string> = new Set(["agent.tool_use", "agent.mcp_tool_use", "agent.custom_tool_use"]);

/** The name the model called: `<server>__<tool>` for MCP tools (as the loop names them for the model). */
function toolName(event: StoredEvent): string {
  const name = String(event.name ?? "");
  return event.type === "agent.mcp_tool_use" ? qualifyMcpToolName(String(event.serverName ?? ""), name) : name;
}

function gradedWithCalls(event: StoredEvent): boolean {
  const usage = event.usage as { modelCalls?: unknown } | undefined;
  return event.type === "session.outcome_evaluation" && Number(usage?.modelCalls) > 0;
}

function caseError(
  stopReason: string | null,
  sessionError: string | null,
  limits: { maxTurns: number; timeoutMs: number; timedOut: boolean },
): string | null {
  if (limits.timedOut) return `time cap: the case ran past timeoutMs (${limits.timeoutMs} ms) and was interrupted`;
  if (stopReason === "end_turn") return null;
  if (stopReason === "max_turns") return `turn cap: the agent reached maxTurns (${limits.maxTurns} model calls)`;
  if (sessionError) return sessionError;
  if (stopReason === null) return "the session's turn did not end";
  return `the session stopped with ${stopReason}`;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part && typeof part.text === "string" ? part.text : "")).join("");
}

function errorText(error: unknown): string {
  if (error && typeof error === "object") {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return `${String(code ?? "session.error")}: ${String(message ?? "")}`;
  }
  return "session.error";
}
