import { deleteExpiredAutomationRuns } from "./automations/index.js";
import type { AppContext } from "./context.js";
import { integerSetting } from "./lib/env.js";
import type { Stoppable } from "./lib/lifecycle.js";
import { startPeriodicSweep } from "./lib/periodic-sweep.js";
import { deleteExpiredWebhookDeliveries } from "./webhooks/index.js";

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface RetentionSettings {
  /** Automation run records older than this many days go (`AUTOMATION_RUN_RETENTION_DAYS`, default 90; 0 keeps all). */
  automationRunDays: number;
  /** Finished webhook deliveries older than this go (`WEBHOOK_DELIVERY_RETENTION_DAYS`, default 30; 0 keeps all). */
  webhookDeliveryDays: number;
}

export function readRetentionSettings(env: Record<string, string | undefined>): RetentionSettings {
  return {
    automationRunDays: integerSetting(env, "AUTOMATION_RUN_RETENTION_DAYS", 90, 0, 36_500),
    webhookDeliveryDays: integerSetting(env, "WEBHOOK_DELIVERY_RETENTION_DAYS", 30, 0, 36_500),
  };
}

/** One sweep: what each retention setting lets go, deleted in small batches. Returns how many rows of each went. */
export async function sweepRetention(
  ctx: AppContext,
  settings: RetentionSettings,
): Promise<{ automationRuns: number; webhookDeliveries: number }> {
  const pool = ctx.db.pool;
  const automationRuns =
    settings.automationRunDays > 0 ? await deleteExpiredAutomationRuns(pool, settings.automationRunDays) : 0;
  const webhookDeliveries =
    settings.webhookDeliveryDays > 0 ? await deleteExpiredWebhookDeliveries(pool, settings.webhookDeliveryDays) : 0;
  return { automationRuns, webhookDeliveries };
}

/** Hourly sweep in every worker (the deletes are idempotent, so several workers may run it). */
export function startRetention(ctx: AppContext): Stoppable {
  const settings = readRetentionSettings(ctx.config.env);
  return startPeriodicSweep("retention sweep", SWEEP_EVERY_MS, ctx.logger, async () => {
    const deleted = await sweepRetention(ctx, settings);
    if (deleted.automationRuns + deleted.webhookDeliveries > 0) ctx.logger.info(deleted, "retention sweep");
  });
}
