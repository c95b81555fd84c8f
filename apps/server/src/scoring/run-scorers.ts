import type { ExpectedToolCall, Score, Scorer } from "@agent-platform/contract";
import { scoreTrajectory, type ToolCall } from "./trajectory.js";

/** What the case's run did (agent tasks: read from its session's log; model tasks: one call, no tools). */
export interface CaseRun {
  toolCalls: ToolCall[];
  modelCalls: number;
  /** The task's estimated cost (judges excluded); null when a model's price is unknown. */
  costUsd: number | null;
  /** From the case's start to its output. */
  latencyMs: number;
}

export type RunScorer = Extract<Scorer, { type: "trajectory" | "call_count" | "cost" | "latency" }>;

export const RUN_SCORER_TYPES: ReadonlySet<Scorer["type"]> = new Set(["trajectory", "call_count", "cost", "latency"]);

/** Scorers of what the run did rather than of its answer: pure, from the run and the case's expected tool calls. */
export function scoreRun(scorer: RunScorer, run: CaseRun, expectedTools: readonly ExpectedToolCall[] | null): Score {
  switch (scorer.type) {
    case "trajectory": {
      if (expectedTools === null) return binary("trajectory", false, "the case has no expectedTools");
      const verdict = scoreTrajectory(expectedTools, run.toolCalls, scorer.mode);
      return {
        type: "trajectory",
        score: verdict.metrics.f1,
        passed: verdict.passed,
        reason: verdict.reason,
        trajectory: verdict.metrics,
      };
    }
    case "call_count": {
      const count = scorer.of === "tool_calls" ? run.toolCalls.length : run.modelCalls;
      const what = scorer.of === "tool_calls" ? "tool calls" : "model calls";
      const min = scorer.min ?? 0;
      if (count > scorer.max) return binary("call_count", false, `${count} ${what}, more than ${scorer.max}`);
      if (count < min) return binary("call_count", false, `${count} ${what}, fewer than ${min}`);
      return binary("call_count", true, null);
    }
    case "cost": {
      if (run.costUsd === null) return binary("cost", false, "the cost is unknown: a model's price is not known");
      const within = run.costUsd <= scorer.maxUsd;
      return binary("cost", within, within ? null : `cost ${run.costUsd} USD is over ${scorer.maxUsd} USD`);
    }
    case "latency": {
      const within = run.latencyMs <= scorer.maxMs;
      return binary("latency", within, within ? null : `took ${run.latencyMs} ms, over ${scorer.maxMs} ms`);
    }
  }
}

function binary(type: Score["type"], passed: boolean, reason: string | null): Score {
  return { type, score: passed ? 1 : 0, passed, reason };
}
