import { microUsd, recordUsages } from "../budgets/index.js";
import type { AppContext } from "../context.js";
import { exponentialBackoff, type JobKind, type NoPayload, type RunningJob } from "../jobs/index.js";
import { providerSettingsOf } from "../models/index.js";
import { ScoringFailed, scoreOutput } from "../scoring/score-output.js";
import type { CaseResult, TaskOutcome } from "./cases/case-outcome.js";
import { runAgentCase } from "./cases/run-agent-case.js";
import { runModelCase } from "./cases/run-model-case.js";
import { failExperiment } from "./fail-experiment.js";
import { finishCase } from "./finish-case.js";
import { CASE_JOB, parseCaseKey } from "./job-types.js";
import { createJudge } from "./judge.js";
import { loadCase, markStarted } from "./load-case.js";
import { publishExperimentEnd } from "./publish-end.js";
import type { CaseRow, ExperimentRow } from "./serialize.js";

/**
 * The job kind of experiment cases (`experiment.case`, key `<experimentId>:<position>`). A run produces the case's
 * output (a model call, or a real agent session), scores it, and records the result fenced on its lease: a case is
 * recorded (and scored into the totals) once, however often it runs. A case's own failure (model error, turn or time
 * cap, a scorer that cannot score) is a result with `status: error`; a run that throws (database, crash) is retried,
 * and when retries are exhausted the experiment fails.
 */
export function experimentCaseKind(ctx: AppContext, concurrency: number, leaseMs: number): JobKind<NoPayload> {
  const settings = providerSettingsOf(ctx.config.env);
  return {
    ...CASE_JOB,
    concurrency,
    leaseMs,
    retry: { maxAttempts: 5, backoffMs: exponentialBackoff({ baseMs: 1_000, maxMs: 60_000, jitter: 0.2 }) },
    async run(job) {
      const key = parseCaseKey(job.key);
      if (!key) return undefined;
      const loaded = await loadCase(ctx.db.pool, key.experimentId, key.position);
      if (!loaded || loaded.experiment.status === "failed") return undefined;
      if (loaded.row.state === "completed" || loaded.row.state === "error") return undefined;
      const { experiment, row } = loaded;
      const startedAt = await markStarted(ctx.db.pool, experiment.id, row.position);
      const task = experiment.task;
      const outcome =
        task.type === "model"
          ? await runModelCase(ctx, settings, experiment.workspaceId, task, row.input, row.conversation, job.signal)
          : await runAgentCase(ctx, job, experiment, row, task, startedAt);
      const result = await scored(ctx, experiment, row, outcome, Date.now() - startedAt.getTime(), job);
      result.latencyMs = Date.now() - startedAt.getTime();
      await job.fenced(async (client) => {
        const completed = await finishCase(client, experiment.id, row.position, result);
        if (completed) await publishExperimentEnd(ctx, client, completed);
      });
      return undefined;
    },
    async giveUp(job) {
      const key = parseCaseKey(job.key);
      if (!key) return;
      const message = `case ${key.position} could not be run after ${job.failures} attempts: ${job.lastError}`;
      await job.fenced(async (client) => {
        const failed = await failExperiment(client, key.experimentId, message);
        if (failed) await publishExperimentEnd(ctx, client, failed);
      });
    },
  };
}

async function scored(
  ctx: AppContext,
  experiment: ExperimentRow,
  row: Pick<CaseRow, "input" | "expected" | "expectedTools">,
  outcome: TaskOutcome,
  taskLatencyMs: number,
  job: RunningJob<NoPayload>,
): Promise<CaseResult> {
  const base = { ...outcome, latencyMs: 0, judgeUsage: { inputTokens: 0, outputTokens: 0 }, scores: [] };
  if (outcome.error !== null || outcome.output === null) return { ...base, state: "error" };
  const judge = createJudge(ctx, experiment.projectId, experiment.task, job.signal);
  try {
    const run = {
      toolCalls: outcome.toolCalls ?? [],
      modelCalls: outcome.modelCalls ?? 1,
      costUsd: outcome.costUsd,
      latencyMs: taskLatencyMs,
    };
    const scored = {
      input: row.input,
      expected: row.expected,
      output: outcome.output,
      run,
      expectedTools: row.expectedTools,
    };
    const scores = await scoreOutput(experiment.scorers, scored, judge);
    const judgeCost = judge.costUsd();
    const costUsd =
      outcome.costUsd === null || judgeCost === null ? null : (microUsd(outcome.costUsd) + microUsd(judgeCost)) / 1e6;
    return { ...base, scores, costUsd, judgeUsage: judge.usage, state: "completed" };
  } catch (error) {
    if (!(error instanceof ScoringFailed)) throw error;
    return { ...base, judgeUsage: judge.usage, error: error.message, state: "error" };
  } finally {
    if (judge.calls > 0) {
      await recordModelUsage(ctx, experiment.workspaceId, judge.usage, judge.calls, judge.costUsd());
    }
  }
}

async function recordModelUsage(
  ctx: AppContext,
  workspaceId: string,
  usage: { inputTokens: number; outputTokens: number },
  calls: number,
  costUsd: number | null,
): Promise<void> {
  await recordUsages(ctx.db.pool, {
    workspaceId,
    usages: [
      { meter: "tokens", amount: usage.inputTokens + usage.outputTokens },
      { meter: "model_calls", amount: calls },
      { meter: "cost_usd", amount: microUsd(costUsd) },
    ],
  });
}
