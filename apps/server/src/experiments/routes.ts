import { experimentsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { notFound } from "../http/app-error.js";
import { authOf, projectScope } from "../http/auth-context.js";
import { compareExperiments } from "./compare-experiments.js";
import { createExperiment } from "./create-experiment.js";
import { getExperiment, listExperiments, listResults } from "./read-experiments.js";

const s = initServer();

/** An experiment of another project is simply not found: the same 404 whether it exists or not. */
function experimentScope(req: { auth?: unknown }, params: { projectId: string; id: string }): void {
  if (authOf(req as never).projectId !== params.projectId) {
    throw notFound("experiment.not_found", "Experiment", params.id);
  }
}

export function experimentRoutes(ctx: AppContext) {
  const pool = ctx.db.pool;
  return s.router(experimentsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createExperiment(ctx, projectScope(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: await listExperiments(pool, params.projectId, query) };
    },
    get: async ({ req, params }) => {
      experimentScope(req, params);
      return { status: 200, body: await getExperiment(pool, params.projectId, params.id) };
    },
    results: async ({ req, params, query }) => {
      experimentScope(req, params);
      return { status: 200, body: await listResults(pool, params.projectId, params.id, query) };
    },
    compare: async ({ req, params, query }) => {
      experimentScope(req, params);
      return { status: 200, body: await compareExperiments(pool, params.projectId, params.id, query.baseline) };
    },
  });
}
