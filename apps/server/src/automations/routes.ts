import { automationsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { notFound } from "../http/app-error.js";
import { type AuthContext, authOf, projectScope } from "../http/auth-context.js";
import { createAutomation } from "./create-automation.js";
import { deleteAutomation } from "./delete-automation.js";
import { listAutomationRuns } from "./list-runs.js";
import { parseSchedule } from "./parse-schedule.js";
import { getAutomation, listAutomations } from "./read-automations.js";
import { requestManualRun } from "./request-run.js";
import { updateAutomation } from "./update-automation.js";

const s = initServer();

/** An automation of another project is simply not found: the same 404 whether it exists or not. */
function automationScope(req: { auth?: AuthContext }, params: { projectId: string; id: string }): AuthContext {
  const auth = authOf(req);
  if (auth.projectId !== params.projectId) throw notFound("automation.not_found", "Automation", params.id);
  return auth;
}

export function automationRoutes(ctx: AppContext) {
  const pool = ctx.db.pool;
  return s.router(automationsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createAutomation(ctx, projectScope(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: await listAutomations(pool, params.projectId, query) };
    },
    parseSchedule: async ({ req, params, body }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: parseSchedule(body) };
    },
    get: async ({ req, params }) => {
      automationScope(req, params);
      return { status: 200, body: await getAutomation(pool, params.projectId, params.id) };
    },
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateAutomation(ctx, automationScope(req, params), params.id, body),
    }),
    remove: async ({ req, params }) => {
      automationScope(req, params);
      await deleteAutomation(pool, params.projectId, params.id);
      return { status: 204, body: undefined };
    },
    run: async ({ req, params }) => {
      automationScope(req, params);
      return { status: 202, body: await requestManualRun(pool, params.projectId, params.id) };
    },
    listRuns: async ({ req, params, query }) => {
      automationScope(req, params);
      return { status: 200, body: await listAutomationRuns(pool, params.projectId, params.id, query) };
    },
  });
}
