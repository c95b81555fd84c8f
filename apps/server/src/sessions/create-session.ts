import { type CreateSessionInput, type Session, type UserEvent } from "@agent-platform/contract";
import type pg from "pg";
import { guessCurrentVersion, loadAgentVersion, versionDefaults } from "../agents/load-agent-version.js";
import { budgetExceededError, reserveUsage, unbudgetedUsageCtes } from "../budgets/index.js";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { newId } from "../ids.js";
import { prepared } from "../lib/prepared.js";
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
 * `environmentId`, `vaultIds` and `resources` once by the spec's precedence, and writes it: in one statement when no
 * blocking budget counts its meters and it has no initial events (`insertUnbudgetedSession`), otherwise in one
 * transaction that reserves the session on the blocking budgets, inserts it, appends the initial events and, when
 * there were events, records the work request for the loop (`insertSession`).
 */
export async function createSession(
  ctx: AppContext,
  scope: Scope,
  input: CreateSessionInput,
  options: CreateSessionOptions = {},
): Promise<Session> {
  const ref = typeof input.agent === "string" ? { id: input.agent } : input.agent;
  const pinned = "version" in ref ? ref.version : undefined;
  if ((input.events ?? []).length === 0) {
    const quick = await createOnAssumedHead(ctx, scope, input, ref.id, pinned, options);
    if (quick) return quick;
  }
  const agent = await loadAgentVersion(ctx, scope.projectId, ref.id, pinned);
  if (agent.archivedAt) {
    throw new AppError("agent.archived", `Agent ${agent.agentId} is archived; duplicate it to start new sessions`);
  }
  const settings = await resolveExecutionSettings(ctx, scope, input, agent.config.defaults);

  const session: NewSession = {
    workspaceId: scope.workspaceId,
    projectId: scope.projectId,
    agentId: agent.agentId,
    agentVersion: agent.version,
    title: input.title ?? null,
    metadata: input.metadata ?? {},
    settings,
    events: input.events ?? [],
    parentSessionId: options.parentSessionId ?? null,
  };
  const row =
    (session.events.length === 0 ? await insertUnbudgetedSession(ctx.db.pool, session) : null) ??
    (await inTransaction(ctx.db.pool, (client) => insertSession(client, session)));
  return toSession(row);
}

/**
 * The common case in one statement, without reading the agent's head first: the version is the pinned one or the
 * current version this process last saw (versions are immutable, their defaults cached), and the insert checks in the
 * same statement that the agent is in the project, not archived, and still at that version. Null when anything does
 * not hold (or a blocking budget applies, or the agent's version is not known here): the caller takes the general
 * path, which reads the head and reports what is wrong.
 */
async function createOnAssumedHead(
  ctx: AppContext,
  scope: Scope,
  input: CreateSessionInput,
  agentId: string,
  pinned: number | undefined,
  options: CreateSessionOptions,
): Promise<Session | null> {
  const version = pinned ?? guessCurrentVersion(agentId);
  if (version === undefined) return null;
  let settings: ExecutionSettings;
  try {
    settings = await resolveExecutionSettings(ctx, scope, input, await versionDefaults(ctx, agentId, version));
  } catch (error) {
    // The general path reports errors in their order (the agent first).
    if (error instanceof AppError) return null;
    throw error;
  }
  const session: NewSession = {
    workspaceId: scope.workspaceId,
    projectId: scope.projectId,
    agentId,
    agentVersion: version,
    title: input.title ?? null,
    metadata: input.metadata ?? {},
    settings,
    events: [],
    parentSessionId: options.parentSessionId ?? null,
  };
  const row = await insertUnbudgetedSession(ctx.db.pool, session, { pinned: pinned !== undefined });
  return row ? toSession(row) : null;
}

/** The meters a new session reserves (`sessions`) or must not have exhausted. */
const SESSION_METERS = ["sessions", "tokens", "model_calls"] as const;

/**
 * The common case in one statement (one round trip, no explicit transaction): when no blocking budget counts any of
 * the session's meters, the `sessions` usage is recorded and the row inserted together. Returns null, having written
 * nothing, when a blocking budget applies: the caller then takes `insertSession`, which locks and checks it. A budget
 * committed after the statement began is not seen, exactly as with the check inside the transaction.
 */
async function insertUnbudgetedSession(
  pool: pg.Pool,
  session: NewSession,
  /** Also check the agent's head in the statement (it was not read): in the project, not archived, at the version. */
  assumedHead?: { pinned: boolean },
): Promise<SessionRow | null> {
  const params: unknown[] = [];
  const at = (value: unknown) => `$${params.push(value)}`;
  const headHolds = assumedHead
    ? `EXISTS (SELECT 1 FROM agents a WHERE a."id" = ${at(session.agentId)} AND a."projectId" = ${at(session.projectId)}
         AND a."archivedAt" IS NULL ${assumedHead.pinned ? "" : `AND a."currentVersion" = ${at(session.agentVersion)}`})`
    : undefined;
  const ctes = unbudgetedUsageCtes(
    {
      workspaceId: session.workspaceId,
      agentId: session.agentId,
      usages: [{ meter: "sessions", amount: 1 }],
      meters: SESSION_METERS,
    },
    params,
    headHolds,
  );
  const { rows } = await pool.query<SessionRow>(
    prepared(
      `WITH ${ctes}, created AS (
       INSERT INTO sessions ("id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata",
         "environmentId", "vaultIds", "resources", "parentSessionId")
       SELECT ${at(newId("session"))}, ${at(session.projectId)}, ${at(session.workspaceId)}, ${at(session.agentId)},
         ${at(session.agentVersion)}::int, ${at(session.title)}, ${at(JSON.stringify(session.metadata))}::jsonb,
         ${at(session.settings.environmentId)}, ${at(session.settings.vaultIds)}::text[],
         ${at(JSON.stringify(session.settings.resources))}::jsonb, ${at(session.parentSessionId)}
       FROM unbudgeted WHERE unbudgeted."free"
       RETURNING ${SESSION_COLUMNS}
     )
     SELECT * FROM created`,
      params,
    ),
  );
  return rows[0] ?? null;
}

/** A session to insert, everything already resolved and checked (agent version, execution settings). */
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
 * Inserts a session in the caller's transaction (its client): first the session is reserved on the `sessions` meter
 * (refused with 403 `budget.exceeded`, before anything is written, when a blocking budget has no room or the `tokens` /
 * `model_calls` ones are used up; the reservation locks only the blocking budgets that count it), then the row, the
 * initial events and the turn request when there were events (NOTIFY delivered at commit). For areas that create a
 * session together with their own records (an automation firing and its run record commit together, or not at all).
 */
export async function insertSession(client: pg.PoolClient, session: NewSession): Promise<SessionRow> {
  const exceeded = await reserveUsage(client, {
    workspaceId: session.workspaceId,
    agentId: session.agentId,
    reserve: [{ meter: "sessions", amount: 1 }],
    check: SESSION_METERS.filter((meter) => meter !== "sessions"),
  });
  if (exceeded) throw budgetExceededError(exceeded);
  const id = newId("session");
  const { rows } = await client.query<SessionRow>(
    `INSERT INTO sessions ("id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata",
       "environmentId", "vaultIds", "resources", "parentSessionId")
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::text[], $10::jsonb, $11)
     RETURNING ${SESSION_COLUMNS}`,
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
  if (session.events.length === 0) return rows[0]!;
  await appendUserEvents(client, id, [], session.events);
  await requestTurn(client, id);
  // The appended events moved `lastSeq`.
  const after = await client.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE "id" = $1`, [id]);
  return after.rows[0]!;
}
