import type { SessionOutcome } from "@agent-platform/contract";

/** The outcome state of a new session (and of a turn being worked on). */
export function initialOutcome(maxRevisions: number): SessionOutcome {
  return { state: "pending", revisions: 0, maxRevisions };
}
