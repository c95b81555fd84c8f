import type { PendingAction, StopReason } from "@agent-platform/contract";
import type { ConversationMedia, ModelReasoningPart } from "../../models/index.js";
import type { StoredEvent } from "../../sessions/index.js";
import { qualifyMcpToolName } from "../mcp/index.js";
import { contentMedia, contentText, EV } from "./events.js";

/**
 * The state of a session rebuilt from its log alone (the log is the source of truth): what the model said, which tool
 * uses have results, what is answered, whether a turn is open, and so what the loop must do next. Pure.
 */

export type ToolUseKind = "tool" | "mcp" | "custom";

export interface ToolUseState {
  id: string;
  seq: number;
  kind: ToolUseKind;
  /** The name the model called: `<server>__<tool>` for MCP tools. */
  name: string;
  /** MCP tool uses: the server and the tool's own name. */
  serverName?: string;
  toolName?: string;
  input: unknown;
  requiresConfirmation: boolean;
  /** `media`: images, audio and binary resources of an MCP result, stored as artifacts. */
  result?: { text: string; isError: boolean; seq: number; media?: ConversationMedia[] };
  confirmation?: { allow: boolean; denyMessage?: string; seq: number };
}

/** One model response: its message and tool uses, closed by `agent.usage` (appended together, so contiguous). */
export interface ModelStep {
  firstSeq: number;
  /** The newest log entry the model call had in its context. */
  contextSeq: number;
  text: string;
  toolUses: ToolUseState[];
  /** `agent.thinking` entries of the response, sent back with it as they came. */
  reasoning?: ModelReasoningPart[];
}

export type NextAction =
  /** A `user.interrupt` stops the open work: unanswered tool uses get error results, then idle `interrupted`. */
  | { kind: "interrupt"; unresolved: ToolUseState[] }
  /** Tool uses to run now (allowed, or confirmed), or to close with the denial message. */
  | { kind: "run_tools"; toolUses: ToolUseState[] }
  /** Tool uses waiting for a confirmation or a custom tool result. */
  | { kind: "await_actions"; pending: PendingAction[]; toolUses: ToolUseState[] }
  | { kind: "call_model" }
  /** The turn is over: idle `end_turn` if it is open, nothing otherwise. */
  | { kind: "finish" }
  /** Nothing to do (no open turn, no new input). */
  | { kind: "none" };

export interface LogState {
  lastSeq: number;
  steps: ModelStep[];
  /** The last status entry is `session.status_running`. */
  turnOpen: boolean;
  /** Stop reason of the last `session.status_idle`, null if there is none. */
  lastStopReason: StopReason | null;
  /** Model calls since the last `session.status_running`. */
  modelCallsInTurn: number;
  /** Outcomes: revisions asked for in the turn, and its final answer when no evaluation graded it yet. */
  outcome: { revisions: number; answer: { seq: number; text: string } | null };
  next: NextAction;
}

const INPUT_TYPES: ReadonlySet<string> = new Set([EV.userMessage, EV.userToolConfirmation, EV.userCustomToolResult]);

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toolUseOf(event: StoredEvent): ToolUseState {
  const kind: ToolUseKind = event.type === EV.mcpToolUse ? "mcp" : event.type === EV.customToolUse ? "custom" : "tool";
  const name = String(event.name ?? "");
  const serverName = kind === "mcp" ? String(event.serverName ?? "") : undefined;
  return {
    id: event.id,
    seq: event.seq,
    kind,
    name: kind === "mcp" ? qualifyMcpToolName(serverName!, name) : name,
    ...(kind === "mcp" ? { serverName, toolName: name } : {}),
    input: event.input ?? {},
    requiresConfirmation: event.requiresConfirmation === true,
  };
}

/**
 * A pass over this state writes `session.status_running` before anything else: no turn is open, and the next step
 * calls the model or runs tool uses, which both open the turn first (`SessionPass.openTurn`). Waiting for answers does
 * not (or does only without an operator, a setting the log does not tell).
 */
export function opensTurnFirst(state: LogState): boolean {
  return !state.turnOpen && (state.next.kind === "call_model" || state.next.kind === "run_tools");
}

export function analyzeLog(events: readonly StoredEvent[]): LogState {
  const steps: ModelStep[] = [];
  const uses = new Map<string, ToolUseState>();
  let open: ModelStep | undefined;
  let lastStatus: { type: string; seq: number } | undefined;
  let lastIdleSeq = 0;
  let lastStopReason: StopReason | null = null;
  let modelCalls = 0;
  let revisions = 0;
  let gradedSeq = 0;
  const closeOpen = (contextSeq?: number) => {
    if (!open) return;
    open.contextSeq = contextSeq ?? open.firstSeq - 1;
    steps.push(open);
    open = undefined;
  };

  for (const event of events) {
    switch (event.type) {
      case EV.thinking:
      case EV.agentMessage:
      case EV.toolUse:
      case EV.mcpToolUse:
      case EV.customToolUse: {
        open ??= { firstSeq: event.seq, contextSeq: 0, text: "", toolUses: [] };
        if (event.type === EV.thinking) {
          const part = { text: String(event.text ?? ""), providerMetadata: event.providerMetadata };
          open.reasoning = [...(open.reasoning ?? []), part as ModelReasoningPart];
        } else if (event.type === EV.agentMessage) {
          const text = contentText(event.content);
          open.text = open.text ? `${open.text}\n${text}` : text;
        } else {
          const use = toolUseOf(event);
          open.toolUses.push(use);
          uses.set(use.id, use);
        }
        break;
      }
      case EV.usage: {
        open ??= { firstSeq: event.seq, contextSeq: 0, text: "", toolUses: [] };
        const contextSeq = typeof event.contextSeq === "number" ? event.contextSeq : undefined;
        closeOpen(contextSeq);
        modelCalls++;
        break;
      }
      default:
        closeOpen();
    }
    switch (event.type) {
      case EV.toolResult:
      case EV.mcpToolResult:
      case EV.userCustomToolResult: {
        const id = String(event.type === EV.userCustomToolResult ? event.customToolUseId : event.toolUseId);
        const use = uses.get(id);
        if (use && !use.result) {
          const media = event.type === EV.mcpToolResult ? contentMedia(event.content) : [];
          use.result = {
            text: contentText(event.content),
            isError: event.isError === true,
            seq: event.seq,
            ...(media.length > 0 ? { media } : {}),
          };
        }
        break;
      }
      case EV.userToolConfirmation: {
        const use = uses.get(String(event.toolUseId));
        if (use && !use.confirmation) {
          use.confirmation = {
            allow: event.result === "allow",
            ...(typeof event.denyMessage === "string" ? { denyMessage: event.denyMessage } : {}),
            seq: event.seq,
          };
        }
        break;
      }
      case EV.statusRunning:
        lastStatus = { type: event.type, seq: event.seq };
        modelCalls = 0;
        revisions = 0;
        break;
      case EV.outcomeEvaluation:
        gradedSeq = Math.max(gradedSeq, Number(event.answerSeq));
        if (event.revise === true) revisions++;
        break;
      case EV.statusIdle:
        lastStatus = { type: event.type, seq: event.seq };
        lastIdleSeq = event.seq;
        lastStopReason = (event.stopReason as StopReason) ?? null;
        break;
    }
  }
  closeOpen();

  const lastSeq = events.length > 0 ? events[events.length - 1]!.seq : 0;
  const turnOpen = lastStatus?.type === EV.statusRunning;
  const last = steps.at(-1);
  const answer = last && last.toolUses.length === 0 && last.firstSeq > gradedSeq ? last : undefined;
  const outcome = { revisions, answer: answer ? { seq: answer.firstSeq, text: answer.text } : null };
  const base = { lastSeq, steps, turnOpen, lastStopReason, modelCallsInTurn: modelCalls, outcome };
  return { ...base, next: decide(events, base, uses, lastIdleSeq) };
}

function decide(
  events: readonly StoredEvent[],
  state: Pick<LogState, "steps" | "turnOpen" | "lastStopReason">,
  uses: Map<string, ToolUseState>,
  lastIdleSeq: number,
): NextAction {
  const unresolved = [...uses.values()].filter((u) => !u.result);

  // An interrupt counts when there was work to stop at its position: an open turn, input not yet handled, or tool uses
  // waiting for answers (`requires_action`). An interrupt sent to an idle session is a no-op.
  let openWork = state.lastStopReason === "requires_action" && lastIdleSeq > 0;
  let hasNewInput = false;
  for (const event of events) {
    if (event.seq <= lastIdleSeq) continue;
    if (event.type === EV.statusRunning) openWork = true;
    else if (INPUT_TYPES.has(event.type)) {
      openWork = true;
      hasNewInput = true;
    } else if (event.type === EV.userInterrupt && openWork) {
      return { kind: "interrupt", unresolved };
    }
  }
  if (!state.turnOpen && !hasNewInput) return { kind: "none" };

  const awaiting = unresolved.filter((u) => u.kind === "custom" || (u.requiresConfirmation && !u.confirmation));
  const ready = unresolved.filter((u) => u.kind !== "custom" && !u.requiresConfirmation);
  if (ready.length > 0) return { kind: "run_tools", toolUses: ready };
  if (awaiting.length > 0) {
    return {
      kind: "await_actions",
      toolUses: awaiting,
      pending: awaiting.map((u) => ({
        toolUseId: u.id,
        kind: u.kind === "custom" ? "custom_tool" : "confirmation",
        name: u.name,
      })),
    };
  }
  // Every tool use is answered: confirmed ones run (or are closed with the denial) only now, all together.
  if (unresolved.length > 0) return { kind: "run_tools", toolUses: unresolved };

  const last = state.steps[state.steps.length - 1];
  if (last && last.toolUses.length > 0) return { kind: "call_model" };
  const seenUpTo = last ? last.contextSeq : 0;
  if (events.some((e) => isInput(e) && e.seq > seenUpTo)) return { kind: "call_model" };
  return { kind: "finish" };
}

/** A user message, or an outcome evaluation that sends its feedback to the agent. */
function isInput(event: StoredEvent): boolean {
  return event.type === EV.userMessage || (event.type === EV.outcomeEvaluation && event.revise === true);
}
