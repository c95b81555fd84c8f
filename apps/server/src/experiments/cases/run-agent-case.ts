import type { AgentTask } from "@agent-platform/contract";
import { loadAgentVersion } from "../../agents/index.js";
import type { AppContext } from "../../context.js";
import { AppError } from "../../http/app-error.js";
import type { RunningJob } from "../../jobs/index.js";
import { modelCatalogueOf } from "../../models/index.js";
import { historyLength, ingestEvents } from "../../sessions/index.js";
import type { CaseRow, ExperimentRow } from "../serialize.js";
import { agentOutcome } from "./agent-outcome.js";
import { createCaseSession } from "./agent-session.js";
import type { TaskOutcome } from "./case-outcome.js";
import { waitForTurnEnd } from "./wait-for-turn.js";

/** How long an interrupted case session gets to end its turn before the case is recorded anyway. */
const INTERRUPT_GRACE_MS = 30_000;

/**
 * An agent task's case (spec rules 3 and 4): a real session of the frozen agent version runs the input through the
 * durable loop (on the `session.turn` jobs, on any worker); this waits for its turn to end, interrupting it at
 * `timeoutMs` (counted from the case's start, so a re-run after a crash keeps the original deadline).
 */
export async function runAgentCase(
  ctx: AppContext,
  job: RunningJob<object>,
  experiment: ExperimentRow,
  row: CaseRow,
  task: AgentTask,
  startedAt: Date,
): Promise<TaskOutcome> {
  let sessionId = row.sessionId;
  if (!sessionId) {
    try {
      const agent = await loadAgentVersion(ctx, experiment.projectId, task.agentId, task.agentVersion);
      sessionId = await job.fenced((client) => createCaseSession(ctx, client, experiment, row, task, agent));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return {
        output: null,
        error: `the case's session could not start: ${error.message}`,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        sessionId: null,
      };
    }
  }
  const deadline = startedAt.getTime() + task.timeoutMs;
  const afterSeq = historyLength(row.conversation ?? []);
  let waited = await waitForTurnEnd(ctx, sessionId, deadline, job.signal, afterSeq);
  const timedOut = !waited.ended;
  if (timedOut) {
    try {
      await ingestEvents(ctx, experiment.projectId, sessionId, [{ type: "user.interrupt" }]);
    } catch (error) {
      job.logger.warn({ err: error, sessionId }, "experiment case: interrupting the session failed");
    }
    waited = await waitForTurnEnd(ctx, sessionId, Date.now() + INTERRUPT_GRACE_MS, job.signal, afterSeq);
  }
  const limits = { maxTurns: task.maxTurns, timeoutMs: task.timeoutMs, timedOut };
  return agentOutcome(sessionId, waited.log, limits, modelCatalogueOf(ctx.config.env));
}
