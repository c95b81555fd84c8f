import { z } from "zod";

/** `GET /healthz`: the process is up. Served outside the ts-rest router (no key, no envelope). */
export const HealthSchema = z.object({ status: z.literal("ok") }).describe("The process is up");

/**
 * `GET /readyz`: 200 when the process can do its work — the database answers and each part of its background machinery
 * (the notification listener; the job runner in processes that run a worker) works again after an outage — 503
 * otherwise, with the state of each part.
 */
export const ReadinessSchema = z
  .object({
    status: z.enum(["ready", "unavailable"]),
    checks: z
      .record(z.string())
      .describe(
        "Each part's state: `ok`, or what is wrong (`database`: `unreachable`; `listener`: `reconnecting`; `jobs`: why the " +
          "job runner cannot claim work). Only the parts this process runs are listed.",
      ),
    details: z
      .record(z.string())
      .optional()
      .describe(
        "Information that does not decide readiness, e.g. `browser`: whether the browser tool can run confined on this " +
          "host (worker processes).",
      ),
  })
  .passthrough()
  .describe("Whether this process can serve requests: `ready` (200) or `unavailable` (503)");

export type Health = z.infer<typeof HealthSchema>;
export type Readiness = z.infer<typeof ReadinessSchema>;
