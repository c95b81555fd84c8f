import { JobLeaseLost } from "../../jobs/index.js";
import { inSpan, measure } from "../../lib/telemetry/instruments.js";
import {
  DEFAULT_LOOP_SETTINGS,
  type Lease,
  type LoopSessionRow,
  loadLoopSession,
  SessionGone,
  toWireEvent,
} from "../../sessions/index.js";
import type { LoopDeps } from "./deps.js";
import { idleEvent, toolResultEvent } from "./events.js";
import { InterruptWatch } from "./interrupt-watch.js";
import { analyzeLog, type LogState } from "./log-state.js";
import { loopMetrics } from "./metrics.js";
import { idleStatus, LOG_PAGE, SessionPass } from "./pass.js";
import { callModelStep, type StepDecision, type StepOutcome } from "./step-call-model.js";
import { gradeOutcomeStep } from "./step-grade-outcome.js";
import { awaitActionsStep, runToolsStep } from "./step-tools.js";

const MAX_ITERATIONS = 10_000;
const INTERRUPTED_RESULT = "Not completed: the user interrupted the turn.";

/**
 * One pass of the durable loop over a claimed session: rebuild the state from the log, do the next step, append its
 * outcome, repeat until the session waits (idle) or has nothing to do. Every step is idempotent with respect to the
 * log, so a pass that dies anywhere is resumed by the next claim with no lost and no duplicated events:
 * - a model call whose response was not appended is simply made again;
 * - a model response is appended (message, tool uses, `agent.usage`) in one statement before any tool runs;
 * - a tool use without a result is run (again) on resume: tools are at-least-once.
 * `signal` aborts the whole pass (lease lost, shutdown): the pass throws its reason and writes nothing more.
 * Resolves true when the commit that settled the session also released its job (nothing was asked of it since the
 * claim): the pass stops there, and anything asked later is a new job.
 */
export function runSessionPass(
  deps: LoopDeps,
  lease: Lease,
  signal: AbortSignal,
  /** The session as the claim read it (`loopSessionJsonSql`), if it did. */
  preloaded?: LoopSessionRow,
): Promise<boolean> {
  const started = performance.now();
  const pass = () => runPass(deps, lease, signal, preloaded);
  return inSpan("session.turn", { "session.id": lease.sessionId }, pass).finally(() => {
    const ms = performance.now() - started;
    loopMetrics.passMs += ms;
    measure().turnDuration.record(ms / 1000);
  });
}

async function runPass(
  deps: LoopDeps,
  lease: Lease,
  signal: AbortSignal,
  preloaded: LoopSessionRow | undefined,
): Promise<boolean> {
  const { ctx } = deps;
  // The cached prefix of the log (entries never change) and what follows it, read with the session in one query (by
  // the claim, when what it read follows the prefix still cached).
  const log = deps.logCache.take(lease.sessionId);
  const afterSeq = log.at(-1)?.seq ?? 0;
  const session =
    preloaded?.afterSeq === afterSeq
      ? preloaded
      : await loadLoopSession(ctx.db.pool, lease.sessionId, afterSeq, LOG_PAGE);
  if (!session) return false;
  log.push(...session.newEvents.map(toWireEvent));
  const interrupts = new InterruptWatch(ctx.db.pool, session.id, deps.subscribe, (error) =>
    ctx.logger.warn({ err: error, sessionId: session.id }, "interrupt check failed"),
  );
  const pass = new SessionPass(
    deps,
    lease,
    session,
    session.settings ?? DEFAULT_LOOP_SETTINGS,
    interrupts,
    log,
    session.newEvents.length < LOG_PAGE,
  );
  try {
    for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
      if (signal.aborted) throw signal.reason;
      await pass.refresh();
      const state = analyzeLog(pass.log);
      interrupts.analysedSeq = state.lastSeq;
      interrupts.renew();
      const stepSignal = AbortSignal.any([signal, interrupts.signal]);
      let decided: StepOutcome | StepDecision;
      try {
        decided = await step(pass, state, stepSignal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof JobLeaseLost || error instanceof SessionGone) throw error;
        // The step was stopped by an interrupt: the next iteration finds it in the log and closes the turn.
        if (interrupts.signal.aborted) continue;
        throw error;
      }
      if (typeof decided !== "string" && decided.reportedMcpFailures) pass.mcpFailuresReported = true;
      if (pass.released) return true;
      if ((typeof decided === "string" ? decided : decided.outcome) === "settled") return false;
    }
    throw new Error(`Session ${session.id}: the loop did not settle after ${MAX_ITERATIONS} steps`);
  } finally {
    await pass.close();
  }
}

/** Does what the log says comes next. */
async function step(pass: SessionPass, state: LogState, stepSignal: AbortSignal): Promise<StepOutcome | StepDecision> {
  const next = state.next;
  switch (next.kind) {
    case "none":
      return "settled";
    case "finish": {
      if (!state.turnOpen) return "settled";
      const outcome = pass.settings.outcome;
      if (outcome && state.outcome.answer) return gradeOutcomeStep(pass, state, outcome, stepSignal);
      // Ends the turn only if nothing arrived since the analysis (else: look again).
      const written = await pass.commit(
        (head) =>
          head === state.lastSeq ? { events: [idleEvent("end_turn")], status: idleStatus("end_turn") } : { events: [] },
        { mayEndTurn: true },
      );
      return written.length > 0 ? "settled" : "again";
    }
    case "interrupt":
      await pass.append(
        [...next.unresolved.map((u) => toolResultEvent(u, INTERRUPTED_RESULT, true)), idleEvent("interrupted")],
        idleStatus("interrupted"),
      );
      return "again";
    case "await_actions":
      return awaitActionsStep(pass, state, next);
    case "run_tools":
      return runToolsStep(pass, state, next, stepSignal);
    case "call_model":
      return callModelStep(pass, state, stepSignal);
  }
}
