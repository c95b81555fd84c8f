import type { Readiness } from "@agent-platform/contract";
import express, { type Router } from "express";
import type { AppContext } from "../context.js";

/**
 * `/healthz`: the process is up. `/readyz`: the process can do its work: the database answers and every part of its
 * background machinery that registered a readiness check (the notification listener, the job runner) works again
 * after an outage; `checks` says which part is not ready, and `details` informs without deciding (whether browsers can
 * be confined here). Neither needs a key.
 */
export function healthRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", (_req, res, next) => {
    ctx.db.pool
      .query("SELECT 1")
      .then(
        () => answer(res, "ok"),
        () => answer(res, "unreachable"),
      )
      .catch(next);
  });
  async function answer(res: express.Response, database: string): Promise<void> {
    const checks = { database, ...ctx.readiness.report() };
    const ready = Object.values(checks).every((state) => state === "ok");
    const details = await ctx.readiness.details();
    const body: Readiness = {
      status: ready ? "ready" : "unavailable",
      checks,
      ...(Object.keys(details).length > 0 ? { details } : {}),
    };
    res.status(ready ? 200 : 503).json(body);
  }
  return router;
}
