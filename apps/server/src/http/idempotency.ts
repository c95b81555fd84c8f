import { hash } from "node:crypto";
import type { RequestHandler, Response } from "express";
import type { AppContext } from "../context.js";
import { isDatabaseUnavailable } from "../lib/database-unavailable.js";
import { untilDatabaseAnswers } from "../lib/until-database-answers.js";
import { AppError } from "./app-error.js";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const MAX_KEY_LENGTH = 255;
const IN_PROGRESS = 0;
/**
 * A key still marked in progress this long after its request began belongs to a request that never ended (its process
 * was killed): the next request with the key takes it over. Far above any write's duration.
 */
const ABANDONED_AFTER_SECONDS = 300;
/** How long the key of a request that failed during a database outage is retried to be freed. */
const FREE_KEY_WITHIN_MS = 60_000;

interface StoredRow {
  method: string;
  path: string;
  bodyHash: string;
  status: number;
  body: unknown;
}

/**
 * `Idempotency-Key` on mutating requests: the first request with a key stores its response; the same key with the same
 * method, path and body replays it; with anything else it is a 409 `idempotency.conflict`. Server errors are not stored,
 * so the request can be retried with the same key. A key left in progress by a request whose process died is taken
 * over by the next request with it after `ABANDONED_AFTER_SECONDS`.
 */
export function idempotency(ctx: AppContext): RequestHandler {
  const pool = ctx.db.pool;
  return (req, res, next) => {
    const key = req.header("idempotency-key");
    if (!key || !MUTATING.has(req.method) || !req.auth) {
      next();
      return;
    }
    if (key.length > MAX_KEY_LENGTH) {
      next(
        new AppError("request.invalid", "Idempotency-Key is too long", {
          issues: [{ path: "headers.idempotency-key", message: `at most ${MAX_KEY_LENGTH} characters` }],
        }),
      );
      return;
    }
    const workspaceId = req.auth.workspaceId;
    const path = req.originalUrl.split("?")[0]!;
    const bodyHash = hash("sha256", JSON.stringify(req.body ?? null), "hex");
    (async () => {
      const inserted = await pool.query(
        `INSERT INTO idempotency_records ("workspaceId", "key", "method", "path", "bodyHash", "status", "body")
         VALUES ($1, $2, $3, $4, $5, $6, 'null'::jsonb) ON CONFLICT DO NOTHING`,
        [workspaceId, key, req.method, path, bodyHash, IN_PROGRESS],
      );
      if (inserted.rowCount === 0) {
        const { rows } = await pool.query<StoredRow>(
          `SELECT "method", "path", "bodyHash", "status", "body" FROM idempotency_records WHERE "workspaceId" = $1 AND "key" = $2`,
          [workspaceId, key],
        );
        const stored = rows[0];
        if (!stored)
          throw new AppError("idempotency.in_progress", "Retry: the earlier request with this key just ended");
        if (stored.method !== req.method || stored.path !== path || stored.bodyHash !== bodyHash) {
          throw new AppError(
            "idempotency.conflict",
            "This Idempotency-Key was already used with another request; use a new key for a new request",
          );
        }
        if (stored.status !== IN_PROGRESS) {
          res.setHeader("Idempotent-Replayed", "true");
          res.status(stored.status).json(stored.body);
          return;
        }
        const takenOver = await pool.query(
          `UPDATE idempotency_records SET "createdAt" = now()
           WHERE "workspaceId" = $1 AND "key" = $2 AND "status" = $3
             AND "createdAt" < now() - make_interval(secs => $4)`,
          [workspaceId, key, IN_PROGRESS, ABANDONED_AFTER_SECONDS],
        );
        if (takenOver.rowCount === 0) {
          throw new AppError("idempotency.in_progress", "A request with this Idempotency-Key is still being processed");
        }
      }
      captureResponse(res, async (status, body) => {
        if (status >= 500) {
          const free = () =>
            pool.query(`DELETE FROM idempotency_records WHERE "workspaceId" = $1 AND "key" = $2`, [workspaceId, key]);
          await free().catch((error) => {
            if (!isDatabaseUnavailable(error)) throw error;
            // The failure was the database itself (a 503 during a restart): the key is freed as soon as it answers
            // again, without holding the response. Until then a retry is refused as in progress (409), which clients
            // (the SDK included) retry.
            void untilDatabaseAnswers(free, FREE_KEY_WITHIN_MS).catch(() => {});
          });
        } else {
          await pool.query(
            `UPDATE idempotency_records SET "status" = $3, "body" = $4::jsonb WHERE "workspaceId" = $1 AND "key" = $2`,
            [workspaceId, key, status, JSON.stringify(body ?? null)],
          );
        }
      });
      next();
    })().catch(next);
  };
}

function captureResponse(res: Response, store: (status: number, body: unknown) => Promise<void>): void {
  const originalJson = res.json.bind(res);
  let stored = false;
  res.json = ((body: unknown) => {
    stored = true;
    store(res.statusCode, body)
      .catch(() => {})
      .finally(() => originalJson(body));
    return res;
  }) as Response["json"];
  res.on("finish", () => {
    if (!stored) void store(res.statusCode, null).catch(() => {});
  });
}
