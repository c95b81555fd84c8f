// What the composition root uses of automations: routes are mounted by app.ts, job kinds registered by background.ts,
// old run records deleted by retention.ts.
import type { AppContext } from "../context.js";
import type { AnyJobKind } from "../jobs/index.js";
import { automationManualRunKind } from "./manual-run-job.js";
import { automationQueuedKind } from "./queued-job.js";
import { automationScheduleKind } from "./schedule-job.js";

export { deleteExpiredAutomationRuns } from "./retention.js";
export { automationRoutes } from "./routes.js";

/**
 * The automation job kinds, with their slots per worker process: schedules (short database work), manual runs, and
 * `queue_one` firings waiting for a session (each holds a slot while it waits, so they have their own); `leaseMs`:
 * the workers' lease (`WORKER_LEASE_MS`).
 */
export function automationJobKinds(ctx: AppContext, leaseMs: number): AnyJobKind[] {
  return [
    automationScheduleKind(ctx, 4, leaseMs),
    automationManualRunKind(ctx, 4, leaseMs),
    automationQueuedKind(ctx, 16, leaseMs),
  ];
}
