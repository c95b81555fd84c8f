import { agentsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { type AuthContext, authOf } from "../http/auth-context.js";
import { agentNotFound } from "./agent-store.js";
import { archiveAgent } from "./archive-agent.js";
import { createAgent } from "./create-agent.js";
import { duplicateAgent } from "./duplicate-agent.js";
import { getAgent, listAgents, listAgentVersions } from "./read-agents.js";
import { restoreAgentVersion } from "./restore-agent.js";
import { rotateMcpHeaders } from "./rotate-mcp-headers.js";
import { updateAgent } from "./update-agent.js";

const s = initServer();

/**
 * A key sees only its own project. Agent routes of another project answer 404 `agent.not_found`, the area's own code,
 * exactly as an unknown agent does, so existence never leaks.
 */
function agentScope(req: { auth?: AuthContext }, projectId: string, agentId?: string): AuthContext {
  const auth = authOf(req);
  if (auth.projectId !== projectId) {
    throw agentId ? agentNotFound(agentId) : new AppError("agent.not_found", `Project ${projectId} was not found`);
  }
  return auth;
}

export function agentRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const pool = ctx.db.pool;
  return s.router(agentsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createAgent(ctx, agentScope(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listAgents(pool, agentScope(req, params.projectId).projectId, query),
    }),
    get: async ({ req, params, query }) => ({
      status: 200,
      body: await getAgent(pool, agentScope(req, params.projectId, params.id).projectId, params.id, query.version),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateAgent(ctx, agentScope(req, params.projectId, params.id), params.id, body),
    }),
    duplicate: async ({ req, params, body }) => ({
      status: 201,
      body: await duplicateAgent(ctx, agentScope(req, params.projectId, params.id), params.id, body),
    }),
    archive: async ({ req, params }) => ({
      status: 200,
      body: await archiveAgent(prisma, agentScope(req, params.projectId, params.id).projectId, params.id),
    }),
    restore: async ({ req, params, body }) => ({
      status: 200,
      body: await restoreAgentVersion(
        ctx,
        agentScope(req, params.projectId, params.id),
        params.id,
        Number(params.version),
        body.version,
      ),
    }),
    rotateMcpHeaders: async ({ req, params, body }) => ({
      status: 200,
      body: await rotateMcpHeaders(
        ctx,
        agentScope(req, params.projectId, params.id),
        params.id,
        params.name,
        body.headers,
      ),
    }),
    listVersions: async ({ req, params, query }) => ({
      status: 200,
      body: await listAgentVersions(pool, agentScope(req, params.projectId, params.id).projectId, params.id, query),
    }),
  });
}
