import { z } from "zod";
import { idOf, NullableTimestamp, Timestamp } from "../common/fields.js";
import { PageQuerySchema } from "../common/pagination.js";
import { SessionStatusSchema, StopReasonSchema } from "../sessions/sessions.js";

export const AutomationRunSchema = z
  .object({
    id: idOf("autrun"),
    automationId: idOf("auto"),
    sessionId: z
      .string()
      .nullable()
      .describe("`sess_…` id of the created session; null when the firing created none (`status: error`)"),
    triggerKind: z.enum(["schedule", "manual"]),
    scheduledFor: NullableTimestamp.describe(
      "The schedule time this firing is for (before jitter); null for a manual run",
    ),
    status: z
      .enum(["started", "error"])
      .describe(
        "Describes the link to the session, not the work: `started` = the session was created and its loop " +
          "requested; `error` = no session (agent unavailable, budget exceeded, or skipped by the overlap policy)",
      ),
    error: z.string().nullable().describe("Why, when `status` is `error`"),
    createdAt: Timestamp.describe("When the firing happened"),
    sessionStatus: SessionStatusSchema.nullable().describe(
      "Current status of the session, read live; null without a session (or once it was deleted)",
    ),
    sessionStopReason: StopReasonSchema.nullable().describe(
      "Stop reason of the session's last turn, read live; null until a turn has ended",
    ),
    sessionTitle: z.string().nullable().describe("Current title of the session, read live"),
  })
  .describe("Automation run: the record of one firing");

export const AutomationRunListQuery = PageQuerySchema;

export type AutomationRun = z.infer<typeof AutomationRunSchema>;
