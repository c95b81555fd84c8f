import { automationJobKinds } from "./automations/index.js";
import type { AppContext } from "./context.js";
import { experimentCaseKind } from "./experiments/index.js";
import { startIdempotencyCleanup } from "./http/idempotency-cleanup.js";
import { type AnyJobKind, JobRunner } from "./jobs/index.js";
import { knowledgeIndexKind } from "./knowledge-bases/index.js";
import { integerSetting } from "./lib/env.js";
import type { Stoppable } from "./lib/lifecycle.js";
import { LoadGauge, readLoadLimits } from "./lib/load-gauge.js";
import { measure } from "./lib/telemetry/instruments.js";
import { observeJobQueue } from "./lib/telemetry/telemetry.js";
import { memoryIndexKind } from "./memory-stores/index.js";
import { startRetention } from "./retention.js";
import { sessionTurns } from "./runtime/turns/index.js";
import type { LocalTurnsLink } from "./sessions/index.js";
import { webhookDeliveryKind } from "./webhooks/index.js";

/**
 * Background work of the `worker` role: the job runner with every area's job kinds, and periodic housekeeping (stored
 * idempotent responses, retention of automation runs and webhook deliveries). The
 * runner stops first (draining runs in progress for `WORKER_DRAIN_MS`), then the housekeeping and the browsers.
 */
export async function startBackground(ctx: AppContext, localTurns?: LocalTurnsLink): Promise<Stoppable> {
  let runner: JobRunner | undefined;
  const turns = sessionTurns(ctx, () => runner!);
  // Every kind holds the workers' lease (`WORKER_LEASE_MS`, read with the turns' settings): a worker that dies leaves
  // each of its jobs to another worker once it expires. A run renews it every third of it however long it takes.
  const { leaseMs } = turns.kind;
  const kinds: AnyJobKind[] = [
    turns.kind,
    ...automationJobKinds(ctx, leaseMs),
    experimentCaseKind(ctx, integerSetting(ctx.config.env, "EXPERIMENT_CASE_CONCURRENCY", 16, 1, 256), leaseMs),
    webhookDeliveryKind(ctx, leaseMs),
    knowledgeIndexKind(ctx, leaseMs),
    memoryIndexKind(ctx, leaseMs),
  ];
  const pressure = new LoadGauge(
    readLoadLimits(ctx.config.env, ctx.db.pool.options.max ?? 20),
    ctx.db.pool,
    ctx.logger,
  );
  runner = new JobRunner({
    pool: ctx.db.pool,
    listener: ctx.listener,
    logger: ctx.logger,
    kinds,
    drainMs: integerSetting(ctx.config.env, "WORKER_DRAIN_MS", 10_000, 0, 3_600_000),
    pressure,
    onResynchronised: () => measure().runnerResyncs.add(1),
  });
  runner.start();
  const unregister = ctx.readiness.add("jobs", () => runner!.problem);
  // Information, not readiness: a worker under load still serves what it runs; it only claims nothing new.
  ctx.readiness.addDetail("load", () => {
    const reason = pressure.over();
    return reason
      ? `claiming no new work: ${reason}`
      : `claiming work (event-loop delay p99 ${Math.round(pressure.eventLoopDelayMs)} ms)`;
  });
  // A worker runs until it is told to stop. Its other handles (pooled connections, the listener's socket, timers that
  // are unref'd on purpose) can all be gone at once while the database restarts: without this one, a ROLE=worker
  // process would then simply exit (status 0, nothing logged).
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1);
  // Ingestion in this process starts a session's turn here when a slot is free (ROLE=all).
  localTurns?.connect(turns.localTurns);
  observeJobQueue(
    ctx.db.pool,
    kinds.map((k) => k.kind),
  );
  const cleanup = startIdempotencyCleanup(ctx);
  const retention = startRetention(ctx);
  ctx.logger.info({ kinds: kinds.map((k) => ({ kind: k.kind, concurrency: k.concurrency })) }, "job runner started");
  return {
    async stop() {
      localTurns?.disconnect();
      clearInterval(keepAlive);
      unregister();
      await runner.stop();
      pressure.stop();
      await Promise.all([cleanup.stop(), retention.stop(), turns.stop()]);
    },
  };
}
