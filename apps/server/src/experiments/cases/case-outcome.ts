import type { Score } from "@agent-platform/contract";
import type { ToolCall } from "../../scoring/trajectory.js";

/** What running one case produced, before scoring (the task's part of a case). */
export interface TaskOutcome {
  /** The answer to score; null when the task produced none (then `error` says why). */
  output: string | null;
  /** Why the case is an error (turn cap, time cap, model or loop error, missing operator). */
  error: string | null;
  usage: { inputTokens: number; outputTokens: number };
  /** Estimated cost of the task's model calls; null when a model's price is unknown. */
  costUsd: number | null;
  sessionId: string | null;
  /** What the run did, for the run scorers: the agent's tool calls and its model calls (a model task: one, none). */
  toolCalls?: ToolCall[];
  modelCalls?: number;
}

/** A finished case, as recorded. */
export interface CaseResult extends TaskOutcome {
  state: "completed" | "error";
  scores: Score[];
  latencyMs: number;
  judgeUsage: { inputTokens: number; outputTokens: number };
}
