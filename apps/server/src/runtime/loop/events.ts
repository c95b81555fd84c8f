import type { PendingAction, StopReason } from "@agent-platform/contract";
import type { ConversationMedia } from "../../models/index.js";
import { type CommitPlan, initialOutcome, type NewEvent, type SessionLoopSettings } from "../../sessions/index.js";

/** Log entry types the loop reads and writes (design.md §5, docs/sessions.md "How a turn runs"). */
export const EV = {
  userMessage: "user.message",
  userInterrupt: "user.interrupt",
  userToolConfirmation: "user.tool_confirmation",
  userCustomToolResult: "user.custom_tool_result",
  statusRunning: "session.status_running",
  statusIdle: "session.status_idle",
  sessionError: "session.error",
  agentMessage: "agent.message",
  thinking: "agent.thinking",
  toolUse: "agent.tool_use",
  toolResult: "agent.tool_result",
  mcpToolUse: "agent.mcp_tool_use",
  mcpToolResult: "agent.mcp_tool_result",
  customToolUse: "agent.custom_tool_use",
  usage: "agent.usage",
  mcpServerUnavailable: "session.mcp_server_unavailable",
  compaction: "session.compaction",
  outcomeEvaluation: "session.outcome_evaluation",
  guardrail: "session.guardrail",
} as const;

export interface TextPart {
  type: "text";
  text: string;
}

export function textContent(text: string): TextPart[] {
  return [{ type: "text", text }];
}

/** The text of a `content` array (text parts joined by newlines); "" for anything else. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (p): p is TextPart => typeof p === "object" && p !== null && p.type === "text" && typeof p.text === "string",
    )
    .map((p) => p.text)
    .join("\n");
}

/** The media parts (images, audio, binary resources stored as artifacts) of an MCP tool result's `content`. */
export function contentMedia(content: unknown): ConversationMedia[] {
  if (!Array.isArray(content)) return [];
  const media: ConversationMedia[] = [];
  for (const part of content as Record<string, unknown>[]) {
    const type = part?.type;
    if (type !== "image" && type !== "audio" && type !== "resource") continue;
    if (typeof part.artifactId !== "string" || typeof part.mimeType !== "string") continue;
    media.push({
      type,
      mimeType: part.mimeType,
      artifactId: part.artifactId,
      bytes: typeof part.bytes === "number" ? part.bytes : 0,
      ...(typeof part.uri === "string" ? { uri: part.uri } : {}),
    });
  }
  return media;
}

export const runningEvent = (): NewEvent => ({ type: EV.statusRunning, payload: {} });

/**
 * The commit that opens a turn; a session with an outcome has its state back to `pending` for the turn. Ingestion that
 * claims a turn in place writes the same (`sessions/log/ingest-one-statement.ts`), and the pass finds the turn open.
 */
export function runningPlan(settings: SessionLoopSettings): CommitPlan {
  return {
    events: [runningEvent()],
    status: { status: "running", stopReason: null, pendingActions: [] },
    ...(settings.outcome ? { outcome: initialOutcome(settings.outcome.maxRevisions) } : {}),
  };
}

export function idleEvent(stopReason: StopReason, pendingActions: PendingAction[] = []): NewEvent {
  return {
    type: EV.statusIdle,
    payload: stopReason === "requires_action" ? { stopReason, pendingActions } : { stopReason },
  };
}

/** An MCP server whose tools could not be listed (unreachable, refused by the address policy, credentials rejected…). */
export function mcpServerUnavailableEvent(failure: { serverName: string; message: string }): NewEvent {
  return { type: EV.mcpServerUnavailable, payload: { serverName: failure.serverName, message: failure.message } };
}

export function errorEvent(code: string, message: string): NewEvent {
  return { type: EV.sessionError, payload: { error: { code, message } } };
}

/** Result of a platform-run tool use: `agent.mcp_tool_result` for MCP tool uses, `agent.tool_result` otherwise. */
export function toolResultEvent(
  use: { id: string; kind: string },
  text: string,
  isError: boolean,
  /** The result's parts when it holds more than text (MCP results with stored media): the entry's `content`. */
  parts?: readonly unknown[],
): NewEvent {
  return {
    type: use.kind === "mcp" ? EV.mcpToolResult : EV.toolResult,
    payload: { toolUseId: use.id, content: parts ?? textContent(text), isError },
  };
}
