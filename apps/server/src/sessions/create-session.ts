import { BudgetMeterSchema, type CreateSessionInput, type Session, type UserEvent } from "@agent-platform/contract";
import type pg from "pg";
import { loadAgentVersion } from "../agents/load-agent-version.js";
import { budgetExceededError, checkBudgets, recordUsage } from "../budgets/usage.js";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { newId } from "../ids.js";
import { inTransaction } from "../lib/transaction.js";
import { requestTurn } from "./request-turn.js";
import { type ExecutionSettings, resolveExecutionSettings } from "./resolve-execution.js";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./serialize.js";
import { appendUserEvents } from "./user-events.js";

interface Scope {
  workspaceId: string;
  projectId: string;
}

export interface CreateSessionOptions {
  /** The coordinator's session, when the new session is a delegation. */
  parentSessionId?: string;
}

/**
 * Creates a session: resolves the agent version (current when only an id is given; an archived agent is refused), then
 * `environmentId`, `vaultIds` and `resources` once by the spec's precedence, checks the blocking budgets, and in one
 * transaction inserts the session, appends the initial events, counts the session against the `sessions` meter and,
 * when there were events, records the work request for the loop.
 */
export async function createSession(
  ctx: AppContext,
  scope: Scope,
  input: CreateSessionInput,
  options: CreateSessionOptions = {},
): Promise<Session> {
  const prisma = ctx.db.prisma;
  const ref = typeof input.agent === "string" ? { id: input.agent } : input.agent;
  const agent = await loadAgentVersion(ctx, scope.projectId, ref.id, "version" in ref ? ref.version : undefined);
  if (agent.archivedAt) {
    throw new AppError("agent.archived", `Agent ${agent.agentId} is archived; duplicate it to start new sessions`);
  }
  const settings = await resolveExecutionSettings(prisma, scope, input, agent.config.defaults);
  const exceeded = await checkBudgets(ctx.db.pool, {
    workspaceId: scope.workspaceId,
    agentId: agent.agentId,
    meters: BudgetMeterSchema.options,
  });
  if (exceeded) throw budgetExceededError(exceeded);

  const row = await inTransaction(ctx.db.pool, (client) =>
    insertSession(client, {
      workspaceId: scope.workspaceId,
      projectId: scope.projectId,
      agentId: agent.agentId,
      agentVersion: agent.version,
      title: input.title ?? null,
      metadata: input.metadata ?? {},
      settings,
      events: input.events ?? [],
      parentSessionId: options.parentSessionId ?? null,
    }),
  );
  return toSession(row);
}

/** A session to insert, everything already resolved and checked (agent version, execution settings, budgets). */
export interface NewSession extends Scope {
  agentId: string;
  agentVersion: number;
  title: string | null;
  metadata: Record<string, string>;
  settings: ExecutionSettings;
  /** Appended to the new log; when there are any, the loop's turn is requested. */
  events: UserEvent[];
  parentSessionId: string | null;
}

/**
 * Inserts a session in the caller's transaction (its client): the row, the initial events, the turn request when
 * there were events (NOTIFY delivered at commit) and the `sessions` meter. For areas that create a session together
 * with their own records (an automation firing and its run record commit together, or not at all).
 */
export async function insertSession(client: pg.PoolClient, session: NewSession): Promise<SessionRow> {
  const id = newId("session");
  await client.query(
    `INSERT INTO sessions ("id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata",
       "environmentId", "vaultIds", "resources", "parentSessionId")
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::text[], $10::jsonb, $11)`,
    [
      id,
      session.projectId,
      session.workspaceId,
      session.agentId,
      session.agentVersion,
      session.title,
      JSON.stringify(session.metadata),
      session.settings.environmentId,
      session.settings.vaultIds,
      JSON.stringify(session.settings.resources),
      session.parentSessionId,
    ],
  );
  if (session.events.length > 0) {
    await appendUserEvents(client, id, [], session.events);
    await requestTurn(client, id);
  }
  await recordUsage(client, {
    workspaceId: session.workspaceId,
    agentId: session.agentId,
    meter: "sessions",
    amount: 1,
  });
  const { rows } = await client.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE "id" = $1`, [id]);
  return rows[0]!;
}
