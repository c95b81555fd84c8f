import { z } from "zod";
import { jobType, NO_PAYLOAD } from "../jobs/index.js";

/** The schedule of an automation (key: automation id): due at its next schedule time plus jitter. */
export const SCHEDULE_JOB = jobType("automation.schedule", NO_PAYLOAD);
/** Overlap `queue_one`: the one firing waiting for the previous firing's session (key: automation id). */
export const QUEUED_JOB = jobType("automation.queued", NO_PAYLOAD);
/** A manual run (key: the run id, which the run record takes). */
export const MANUAL_RUN_JOB = jobType("automation.run", z.object({ automationId: z.string().min(1) }).strict());
