import { OUTCOME_DEFAULT_REVISIONS, type Outcome, type OutcomeInput } from "@agent-platform/contract";
import { invalidRequest } from "../http/error-envelope.js";
import { regexProblem } from "../scoring/regex.js";

/**
 * The outcome an automation stores for its firings' sessions (`maxRevisions` resolved), null for none. Regex scorers
 * must compile on RE2 (400 at the pattern's path), as for a session created directly.
 */
export function storedOutcome(input: OutcomeInput | null | undefined): Outcome | null {
  if (!input) return null;
  const issues = input.scorers.flatMap((scorer, index) => {
    const problem = scorer.type === "regex" ? regexProblem(scorer.pattern, scorer.flags) : null;
    return problem ? [{ path: `body.outcome.scorers.${index}.pattern`, message: problem }] : [];
  });
  if (issues.length > 0) throw invalidRequest(issues);
  return { scorers: input.scorers, maxRevisions: input.maxRevisions ?? OUTCOME_DEFAULT_REVISIONS };
}
