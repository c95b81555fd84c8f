// The crash trial's clock fast-forward, and its ONLY reach into the database: everything else goes through the HTTP
// API. A scheduled firing would otherwise need the real clock to reach a schedule time. This moves the automation's
// armed schedule time (`automations."nextFireAt"`) back to `to`, a past schedule time, and makes its
// `automation.schedule` job (key: the automation id) due now (or `dueInMs` from now), waking the runners as `enqueueJob` does (NOTIFY on
// `jobs`, payload `<kind>|<due epoch ms>|<key>`); a worker that is down finds it due when it starts. The schedule job
// then fires `to` through its normal path: prepare, fenced commit of the run, `nextFireAt` advanced.
import type pg from "pg";
import { SCHEDULE_JOB } from "../../src/automations/job-types.js";
import { JOBS_CHANNEL } from "../../src/jobs/index.js";
import { untilDatabaseAnswers } from "../../src/lib/until-database-answers.js";

export function scheduleFastForward(db: Pick<pg.Pool, "query">) {
  const once = fastForwardOnce(db);
  // During a database-restart trial the database may be down: try again until it answers (at most a minute).
  return async (automationId: string, to: Date, dueInMs = 0): Promise<void> => {
    if (!(await untilDatabaseAnswers(() => once(automationId, to, dueInMs), 60_000))) {
      throw new Error(`fast-forward: the database did not answer within a minute (automation ${automationId})`);
    }
  };
}

function fastForwardOnce(db: Pick<pg.Pool, "query">) {
  return async (automationId: string, to: Date, dueInMs: number): Promise<void> => {
    const moved = await db.query(`UPDATE automations SET "nextFireAt" = $2 WHERE "id" = $1`, [automationId, to]);
    if (moved.rowCount !== 1) throw new Error(`fast-forward: no automation ${automationId}`);
    const due = await db.query(
      `WITH due AS (
         UPDATE jobs SET "dueAt" = now() + make_interval(secs => $4::float8 / 1000) WHERE "kind" = $1 AND "key" = $2
         RETURNING "kind", "key", "dueAt"
       )
       SELECT pg_notify($3, "kind" || '|' || (EXTRACT(EPOCH FROM "dueAt") * 1000)::bigint || '|' || "key") FROM due`,
      [SCHEDULE_JOB.kind, automationId, JOBS_CHANNEL, dueInMs],
    );
    if (due.rowCount !== 1) throw new Error(`fast-forward: automation ${automationId} has no schedule job`);
  };
}
