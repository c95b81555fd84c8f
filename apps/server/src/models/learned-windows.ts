import type pg from "pg";
import type { Logger } from "pino";
import { cachePerOwner } from "../lib/notified-cache.js";
import type { PgListener } from "../lib/pg-listener.js";

/** What the learned windows need of the process: its pool and its LISTEN connection. */
interface WindowsContext {
  db: { pool: Pick<pg.Pool, "query"> };
  listener: PgListener;
}

/** Notified with the model's name when a process learns its window: every process drops what it knew of it. */
const CHANNEL = "model_context_windows";
/** A learned window is trusted this long: a deployment whose server was given a larger window gets it back. */
const KEPT_DAYS = 7;

/**
 * Windows the providers named when they refused a prompt as too long, per `<provider>/<model-id>`, kept in PostgreSQL
 * (`model_context_windows`) so that every process, and a process started later, plans with them. Per process, a model
 * costs one read; the process that learns a window, and through NOTIFY every other one, reads it again.
 */
const learned = cachePerOwner<number | null>(CHANNEL);

/** The window a provider named for `model` (within the last week), or undefined when none did. */
export async function learnedContextWindow(ctx: WindowsContext, model: string): Promise<number | undefined> {
  const window = await learned(ctx).get(model, async () => {
    const { rows } = await ctx.db.pool.query<{ contextWindow: number }>(
      `SELECT "contextWindow" FROM model_context_windows
       WHERE "model" = $1 AND "learnedAt" > now() - make_interval(days => $2)`,
      [model, KEPT_DAYS],
    );
    return rows[0]?.contextWindow ?? null;
  });
  return window ?? undefined;
}

/** Remembers the window a provider named for `model` (every process is told at commit). */
export async function rememberContextWindow(
  ctx: WindowsContext & { logger: Pick<Logger, "info"> },
  model: string,
  contextWindow: number,
): Promise<void> {
  await ctx.db.pool.query(
    `WITH saved AS (
       INSERT INTO model_context_windows ("model", "contextWindow", "learnedAt") VALUES ($1, $2, now())
       ON CONFLICT ("model") DO UPDATE SET "contextWindow" = EXCLUDED."contextWindow", "learnedAt" = now()
       RETURNING "model")
     SELECT pg_notify($3, "model") FROM saved`,
    [model, contextWindow, CHANNEL],
  );
  learned(ctx).forget(model);
  ctx.logger.info({ model, contextWindow }, "learned a model's context window from its provider's refusal");
}
