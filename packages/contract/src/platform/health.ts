import { z } from "zod";

/** `GET /healthz`: the process is up. Served outside the ts-rest router (no key, no envelope). */
export const HealthSchema = z.object({ status: z.literal("ok") }).describe("The process is up");

/** `GET /readyz`: 200 when the database answers, 503 otherwise. */
export const ReadinessSchema = z
  .object({ status: z.enum(["ready", "unavailable"]) })
  .passthrough()
  .describe("Whether this process can serve requests: `ready` (200) or `unavailable` (503)");

export type Health = z.infer<typeof HealthSchema>;
export type Readiness = z.infer<typeof ReadinessSchema>;
