/** The schedule of an automation (key: automation id): due at its next schedule time plus jitter. */
export const SCHEDULE_KIND = "automation.schedule";
/** Overlap `queue_one`: the one firing waiting for the previous firing's session (key: automation id). */
export const QUEUED_KIND = "automation.queued";
/** A manual run (key: the run id, which the run record takes). */
export const MANUAL_RUN_KIND = "automation.run";
