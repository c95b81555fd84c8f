import type { OutcomeState, Score, SessionOutcome } from "@agent-platform/contract";
import { AppError } from "../../http/app-error.js";
import { type ScoredCase, ScoringFailed, scoreOutput } from "../../scoring/score-output.js";
import type { NewEvent, OutcomeDefinition } from "../../sessions/index.js";
import { initialOutcome } from "../../sessions/index.js";
import { contentText, EV, errorEvent, idleEvent } from "./events.js";
import type { LogState } from "./log-state.js";
import { GradingRefused, outcomeJudge } from "./outcome-judge.js";
import { idleStatus, type SessionPass } from "./pass.js";
import type { StepOutcome } from "./step-call-model.js";

/**
 * The grading step of a session with an outcome: the turn's final answer (the newest model step, which called no tool)
 * is scored with the outcome's scorers, and the evaluation is committed in one fenced commit with what follows from it:
 * - passed, or failed with no revision left: the entry, idle `end_turn` and the final outcome state;
 * - failed with revisions left: the entry with `revise` (it is the agent's next input: its feedback is sent as a user
 *   message) and the state `pending`; the loop calls the model again.
 * The entry names the answer it graded (`answerSeq`): a pass that finds the turn's answer without one (a worker that
 * died while grading) grades it again, and nothing is written twice. Judge calls are counted in the same commit.
 * A grading that cannot be done (a budget refuses a judge call, the judge fails) ends the turn with `session.error`;
 * the outcome stays `pending`.
 */
export async function gradeOutcomeStep(
  pass: SessionPass,
  state: LogState,
  outcome: OutcomeDefinition,
  stepSignal: AbortSignal,
): Promise<StepOutcome> {
  const answer = state.outcome.answer!;
  const config = await pass.loadAgent();
  const grader = outcomeJudge(pass, pass.settings.model ?? config.model, stepSignal);
  const scored: ScoredCase = { input: lastUserText(pass, answer.seq), expected: null, output: answer.text };
  let scores: Score[];
  await pass.recording;
  try {
    scores = await scoreOutput(outcome.scorers, scored, grader.judge);
  } catch (error) {
    const failure = gradingFailure(error);
    const usage = grader.settlement();
    if (!failure) {
      // Interrupted, lease lost, shutdown: nothing is written, and the budgets keep only what the judge really used.
      if (usage) pass.recordUsage(usage);
      throw error;
    }
    await pass.commit(
      () => ({
        events: [errorEvent(failure.code, failure.message), idleEvent("error")],
        status: idleStatus("error"),
        ...(usage ? { usage } : {}),
      }),
      { mayEndTurn: true },
    );
    return "settled";
  }
  const passed = scores.every((s) => s.passed);
  const revision = state.outcome.revisions;
  const revise = !passed && revision < outcome.maxRevisions;
  const feedback = passed ? null : feedbackText(scores, revision + 1, outcome.maxRevisions, revise);
  const evaluation: NewEvent = {
    type: EV.outcomeEvaluation,
    payload: {
      verdict: passed ? "passed" : "failed",
      scores,
      feedback,
      revise,
      revision,
      answerSeq: answer.seq,
      usage: grader.usage(),
      costUsd: grader.costUsd(),
    },
  };
  const finalState: OutcomeState = passed ? "passed" : "failed";
  const outcomeState: SessionOutcome = revise
    ? { ...initialOutcome(outcome.maxRevisions), revisions: revision + 1 }
    : { state: finalState, revisions: revision, maxRevisions: outcome.maxRevisions };
  const usage = grader.settlement();
  const extra = { outcome: outcomeState, ...(usage ? { usage } : {}) };
  // The evaluation is always written (it holds the grading's usage); the turn ends with it only when nothing arrived
  // since the analysis.
  await pass.commit(
    (head) =>
      !revise && head === state.lastSeq
        ? { events: [evaluation, idleEvent("end_turn")], status: idleStatus("end_turn"), ...extra }
        : { events: [evaluation], ...extra },
    { mayEndTurn: !revise },
  );
  return "again";
}

/** The user message the answer replies to (the judge's `input`). */
function lastUserText(pass: SessionPass, beforeSeq: number): string {
  for (let i = pass.log.length - 1; i >= 0; i--) {
    const event = pass.log[i]!;
    if (event.seq < beforeSeq && event.type === EV.userMessage) return contentText(event.content);
  }
  return "";
}

function gradingFailure(error: unknown): { code: string; message: string } | null {
  if (error instanceof GradingRefused) {
    const { exceeded } = error;
    const owner = exceeded.scope === "workspace" ? "The workspace" : "This agent";
    return {
      code: "budget.exceeded",
      message: `${owner} has used ${exceeded.used} of its ${exceeded.limit} ${exceeded.meter} budget for the period (grading the outcome)`,
    };
  }
  if (error instanceof ScoringFailed) return { code: "outcome.grading_failed", message: error.message };
  if (error instanceof AppError) return { code: error.code, message: error.message };
  return null;
}

/** What the agent is told when its answer failed. */
function feedbackText(scores: readonly Score[], attempt: number, maxRevisions: number, revise: boolean): string {
  const failed = scores.filter((s) => !s.passed);
  const lines = failed.map((s) => {
    const score = s.type === "llm_judge" ? ` (score ${s.score.toFixed(2)})` : "";
    return `- ${s.type}${score}: ${s.reason ?? "not met"}`;
  });
  const head = revise
    ? `Your answer did not meet the required outcome. Revise it (revision ${attempt} of ${maxRevisions}).`
    : "The answer did not meet the required outcome, and no revision is left.";
  return [head, ...lines].join("\n");
}
