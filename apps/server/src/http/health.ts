import express, { type Router } from "express";
import type { AppContext } from "../context.js";

/** `/healthz`: the process is up. `/readyz`: the database answers. Neither needs a key. */
export function healthRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", (_req, res) => {
    ctx.db.pool
      .query("SELECT 1")
      .then(() => res.json({ status: "ready" }))
      .catch(() => res.status(503).json({ status: "unavailable" }));
  });
  return router;
}
