import type { AppContext } from "../context.js";
import { type JobKind, type JobOutcome, type NoPayload, RETRY_FOREVER, type RunningJob } from "../jobs/index.js";
import { type DeliverySettings, readDeliverySettings } from "./delivery-settings.js";
import { DELIVERY_JOB, parseDeliveryJobKey } from "./job-types.js";
import { recordAttempt } from "./record-attempt.js";
import { sendDelivery } from "./send-delivery.js";

interface NextDelivery {
  id: string;
  webhookId: string;
  workspaceId: string;
  eventId: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: Date | null;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The job kind of webhook deliveries (`webhook.delivery`, key `<webhookId>:<orderKey>`): sends the pair's pending
 * deliveries one at a time in publication order, so one session's events reach an endpoint in order; a failed attempt
 * keeps the later ones waiting behind it until it succeeds or runs out of attempts (at least once, in order). The
 * retry schedule is the deliveries' own (`nextAttemptAt`); the job core's retries only cover infrastructure failures.
 */
export function webhookDeliveryKind(ctx: AppContext, leaseMs: number): JobKind<NoPayload> {
  const settings = readDeliverySettings(ctx.config.env);
  return {
    ...DELIVERY_JOB,
    concurrency: settings.concurrency,
    leaseMs,
    retry: RETRY_FOREVER,
    run: (job) => deliver(ctx, settings, job),
  };
}

async function deliver(ctx: AppContext, settings: DeliverySettings, job: RunningJob<NoPayload>): Promise<JobOutcome> {
  const key = parseDeliveryJobKey(job.key);
  if (!key) return undefined;
  for (;;) {
    if (job.signal.aborted) throw job.signal.reason;
    const { rows } = await ctx.db.pool.query<NextDelivery>(
      `SELECT d."id", d."webhookId", e."workspaceId", d."eventId", d."payload", d."attempts", d."nextAttemptAt",
         e."url", e."secret", e."previousSecret", e."previousSecretExpiresAt"
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e."id" = d."webhookId"
       WHERE d."webhookId" = $1 AND d."orderKey" = $2 AND d."status" = 'pending' AND e."enabled"
       ORDER BY d."seq" LIMIT 1`,
      [key.webhookId, key.orderKey],
    );
    const next = rows[0];
    if (!next) return undefined;
    if (next.nextAttemptAt && next.nextAttemptAt.getTime() > Date.now()) return { runAgainAt: next.nextAttemptAt };
    const secrets = [ctx.secrets.open<string>(next.secret)];
    if (next.previousSecret && next.previousSecretExpiresAt && next.previousSecretExpiresAt.getTime() > Date.now()) {
      secrets.push(ctx.secrets.open<string>(next.previousSecret));
    }
    const attempt = await sendDelivery(
      ctx,
      { workspaceId: next.workspaceId, url: next.url, secrets },
      { eventId: next.eventId, body: JSON.stringify(next.payload) },
      settings.timeoutMs,
    );
    const retryAt = await job.fenced((client) => recordAttempt(client, next, attempt, settings));
    if (retryAt) return { runAgainAt: retryAt };
  }
}
