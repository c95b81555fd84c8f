import type { UserEvent } from "@agent-platform/contract";
import type pg from "pg";
import { type BudgetExceeded, budgetExceededError, reserveUsage, unbudgetedUsageCtes } from "../../budgets/index.js";
import { newId } from "../../ids.js";
import type { Claim } from "../../jobs/index.js";
import { prepared } from "../../lib/prepared.js";
import { appendEvents } from "./event-log.js";
import { type HistoryTurn, historyEvents } from "./history-events.js";
import { type SessionLoopSettings, saveSessionLoopSettings } from "./loop-settings.js";
import { initialOutcome } from "./outcome-state.js";
import { type ExecutionSettings, SESSION_COLUMNS, type SessionRow } from "./session-row.js";
import { insertClaimedTurn, requestTurn } from "./turn-job.js";
import { appendUserEvents, type StoredInputScreen } from "./user-events.js";

/**
 * A session to insert, everything already resolved and checked (agent version, execution settings): a top-level
 * session, an automation's or an experiment case's, or a delegation's child.
 */
export interface NewSession {
  workspaceId: string;
  projectId: string;
  agentId: string;
  agentVersion: number;
  title: string | null;
  metadata: Record<string, string>;
  settings: ExecutionSettings;
  /** Appended to the new log; when there are any, the loop's turn is requested. */
  events: UserEvent[];
  parentSessionId: string | null;
  /** Earlier messages written as finished turns before `events` (`historyEvents`). */
  history?: readonly HistoryTurn[];
  /** How the loop runs it (`session_loop_settings`), written before its first turn is requested. */
  loop?: Partial<SessionLoopSettings>;
  /** Posted messages are screened where they are stored (guardrails); `screen` screens `events`. */
  screensInput?: boolean;
  screen?: StoredInputScreen;
}

/** The meters a new session reserves (`sessions`) or must not have exhausted. */
const SESSION_METERS = ["sessions", "tokens", "model_calls", "cost_usd"] as const;

/**
 * The common case in one statement (one round trip, no explicit transaction): when no blocking budget counts any of
 * the session's meters, the `sessions` usage is recorded and the row inserted together. Returns null, having written
 * nothing, when a blocking budget applies: the caller then takes `insertSession`, which locks and checks it. A budget
 * committed after the statement began is not seen, exactly as with the check inside the transaction. Only for a
 * session without events or loop settings.
 */
export async function insertUnbudgetedSession(
  pool: pg.Pool,
  session: Omit<NewSession, "events" | "loop" | "history" | "screen">,
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
         "environmentId", "vaultIds", "resources", "parentSessionId", "screensInput")
       SELECT ${at(newId("session"))}, ${at(session.projectId)}, ${at(session.workspaceId)}, ${at(session.agentId)},
         ${at(session.agentVersion)}::int, ${at(session.title)}, ${at(JSON.stringify(session.metadata))}::jsonb,
         ${at(session.settings.environmentId)}, ${at(session.settings.vaultIds)}::text[],
         ${at(JSON.stringify(session.settings.resources))}::jsonb, ${at(session.parentSessionId)},
         ${at(session.screensInput === true)}::boolean
       FROM unbudgeted WHERE unbudgeted."free"
       RETURNING ${SESSION_COLUMNS}
     )
     SELECT * FROM created`,
      params,
    ),
  );
  return rows[0] ?? null;
}

/**
 * Inserts a session in the caller's transaction (its client): first the session is reserved on the `sessions` meter
 * (refused with 403 `budget.exceeded`, before anything is written, when a blocking budget has no room or the `tokens` /
 * `model_calls` ones are used up; the reservation locks only the blocking budgets that count it), then the row, its
 * loop settings, the initial events and the turn request when there were events (NOTIFY delivered at commit). For
 * areas that create a session together with their own records (an automation firing and its run record commit
 * together, or not at all).
 */
export async function insertSession(client: pg.PoolClient, session: NewSession): Promise<SessionRow> {
  const exceeded = await reserveSession(client, session);
  if (exceeded) throw budgetExceededError(exceeded);
  const id = newId("session");
  const row = await writeSession(client, id, session);
  if (session.events.length === 0) return row;
  await requestTurn(client, id);
  // The appended events moved `lastSeq`.
  const after = await client.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE "id" = $1`, [id]);
  return after.rows[0]!;
}

/**
 * The child session of a delegation, in the caller's transaction, as `insertSession` writes any session; a blocking
 * budget without room throws `refused(exceeded)` before anything is written. With `claimAs` (a foreground delegation)
 * the turn's job is inserted already claimed by the caller, who runs it; otherwise its turn is requested.
 */
export async function insertChildSession(
  client: pg.PoolClient,
  session: NewSession,
  refused: (exceeded: BudgetExceeded) => Error,
  claimAs?: { token: string; leaseMs: number },
): Promise<{ id: string; claim?: Claim }> {
  const exceeded = await reserveSession(client, session);
  if (exceeded) throw refused(exceeded);
  const id = newId("session");
  await writeSession(client, id, session);
  if (claimAs) return { id, claim: await insertClaimedTurn(client, id, claimAs) };
  await requestTurn(client, id);
  return { id };
}

function reserveSession(client: pg.PoolClient, session: NewSession): Promise<BudgetExceeded | null> {
  return reserveUsage(client, {
    workspaceId: session.workspaceId,
    agentId: session.agentId,
    reserve: [{ meter: "sessions", amount: 1 }],
    check: SESSION_METERS.filter((meter) => meter !== "sessions"),
  });
}

/** The row, its loop settings and its first events (the turn is the caller's). */
async function writeSession(client: pg.PoolClient, id: string, session: NewSession): Promise<SessionRow> {
  const { rows } = await client.query<SessionRow>(
    `INSERT INTO sessions ("id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata",
       "environmentId", "vaultIds", "resources", "parentSessionId", "outcome", "screensInput")
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::text[], $10::jsonb, $11, $12::jsonb, $13)
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
      // A session with an outcome starts with its state pending (the loop writes it with the log from then on).
      session.loop?.outcome ? JSON.stringify(initialOutcome(session.loop.outcome.maxRevisions)) : null,
      session.screensInput === true,
    ],
  );
  if (session.loop) await saveSessionLoopSettings(client, id, session.loop);
  if (session.history && session.history.length > 0) await appendEvents(client, id, historyEvents(session.history));
  if (session.events.length > 0) await appendUserEvents(client, id, [], session.events, session.screen);
  return rows[0]!;
}
