import type { SessionOutcomeEvaluationEvent } from "@agent-platform/sdk";
import { formatUsd } from "../../lib/format.js";
import type { EntryProps } from "./entry-props.js";

/** The turn's answer graded against the session's outcome: each scorer's verdict, and the feedback when revised. */
export function OutcomeEntry({ entry }: EntryProps<SessionOutcomeEvaluationEvent>) {
  return (
    <article className="entry outcome" aria-label="outcome evaluation">
      <header>
        <strong>Outcome</strong>
        <span className={`badge ${entry.verdict === "passed" ? "pass" : "fail"}`}>{entry.verdict}</span>
        <span className="meta">
          answer #{entry.answerSeq}
          {entry.revision > 0 ? ` · revision ${entry.revision}` : ""}
          {entry.revise ? " · sent back to revise" : ""}
          {entry.costUsd ? ` · judge ${formatUsd(entry.costUsd)}` : ""}
        </span>
      </header>
      <ul className="small">
        {entry.scores.map((score) => (
          <li key={score.type}>
            {score.type}:{" "}
            <span className={`badge ${score.passed ? "pass" : "fail"}`}>{score.passed ? "pass" : "fail"}</span>{" "}
            {score.score.toFixed(2)}
            {score.reason ? ` — ${score.reason}` : ""}
          </li>
        ))}
      </ul>
      {entry.feedback && <p className="small">Feedback: {entry.feedback}</p>}
    </article>
  );
}
