import type { PendingAction, SessionOutcome } from "@agent-platform/contract";
import type pg from "pg";
import { recordUsages, type UsageAmount, usageInsertSql } from "../../budgets/index.js";
import { JobLeaseLost, releaseOwnJobSql } from "../../jobs/index.js";
import { closeNotices, openNotices } from "../../lib/after-commit.js";
import { prepared } from "../../lib/prepared.js";
import {
  announceAppended,
  appendCtes,
  appendEvents,
  EVENT_CREATED_AT,
  type EventRow,
  type NewEvent,
  type StoredEvent,
  toWireEvent,
} from "./event-log.js";
import { sessionUsageOf, sessionUsageSet } from "./session-usage.js";
import { SESSION_TURN_KIND } from "./turn-job.js";

/** The claim a worker pass holds on a session: the lease token of its `session.turn` job. */
export interface Lease {
  sessionId: string;
  token: string;
  /** The generation of the claim: a commit that leaves the session idle releases the job when it is unchanged. */
  generation?: string;
}

/** The lease was taken by another worker (this one stalled past its expiry): stop without writing anything. */
export function leaseLost(sessionId: string): JobLeaseLost {
  return new JobLeaseLost(SESSION_TURN_KIND, sessionId);
}

/** The session was deleted while the loop ran it. */
export class SessionGone extends Error {
  override readonly name = "SessionGone";
  constructor(sessionId: string) {
    super(`Session ${sessionId} no longer exists`);
  }
}

export interface StatusChange {
  status: "idle" | "running";
  stopReason: string | null;
  pendingActions: PendingAction[];
}

/** The session a commit wrote to, as its first statement read it. */
export interface CommittedSession {
  id: string;
  workspaceId: string;
  projectId: string;
  agentId: string;
}

/** Runs in the commit's transaction when it leaves the session idle (webhooks are published with the status). */
export interface IdleHook {
  /** Whether `run` has anything to write for the workspace: when it has not, a commit may leave it out. */
  applies(workspaceId: string): Promise<boolean>;
  run(client: pg.PoolClient, session: CommittedSession, status: StatusChange, stored: StoredEvent[]): Promise<void>;
}

/** What a caller knows that lets its commit be one statement: the head it expects, and the session's workspace. */
export interface ExpectedHead {
  lastSeq: number;
  workspaceId: string;
}

/** Usage counted in the same commit (a model call's tokens with its response). */
export interface CommittedUsage {
  workspaceId: string;
  agentId: string;
  usages: UsageAmount[];
}

export interface CommitPlan {
  events: NewEvent[];
  usage?: CommittedUsage;
  /** The session head (`status`, `stopReason`, `pendingActions`) written in the same transaction as the events. */
  status?: StatusChange;
  /** Only the head changes (no event). */
  pendingActionsOnly?: PendingAction[];
  /** The session's outcome state, written with the events (a grading, a turn of a session with an outcome). */
  outcome?: SessionOutcome;
  /**
   * The generation of the run's claim: the commit also deletes the session's job row when it still is that (nothing
   * was asked of the session since the claim), so the run has nothing left to complete.
   */
  releaseGeneration?: string;
}

/** What a commit stored, and whether it released the session's job (see `CommitPlan.releaseGeneration`). */
export interface Committed {
  stored: StoredEvent[];
  released: boolean;
}

/**
 * Appends loop events in one transaction fenced by the lease. One statement locks the session row and then reads the
 * job row `FOR SHARE` (the order every writer uses: ingestion locks `sessions`, then `jobs`): a concurrent
 * claim waits for this commit, or this commit sees the new owner and rolls back. The plan is built from the current
 * head `lastSeq` (so a caller can decide on what really is the end of the log); the events are appended gap-free and
 * the head (`status`, `stopReason`, `pendingActions`) updated in the same transaction, with `onIdle` (webhook events)
 * when the session goes idle. Returns the stored events, and whether the job was released.
 *
 * With `expected`, the plan is first made on the head the caller expects and committed in one statement that applies
 * only if the head is still that (and the lease ours): one round trip instead of three. When the head moved, the plan
 * is made again on the real head in the transaction. A plan must therefore depend on nothing but the head it is given.
 */
export async function commitFenced(
  pool: pg.Pool,
  lease: Lease,
  plan: (headSeq: number) => CommitPlan,
  onIdle?: IdleHook,
  expected?: ExpectedHead,
): Promise<Committed> {
  if (expected) {
    const planned = plan(expected.lastSeq);
    const hooked = planned.status?.status === "idle" && onIdle ? await onIdle.applies(expected.workspaceId) : false;
    if (!hooked) {
      const committed = await commitInOneStatement(pool, lease, expected.lastSeq, planned);
      if (committed) return committed;
    }
  }
  const client = await pool.connect();
  // The statements around the append travel as simple multi-statement queries (one round trip each), so their values
  // are quoted literals (`escapeLiteral`) rather than parameters.
  const id = client.escapeLiteral(lease.sessionId);
  let broken: Error | undefined;
  let committed = false;
  openNotices(client);
  try {
    // Locks in order: the session row (materialised CTE), then the lease row (lateral, after it).
    const [, head] = (await client.query(
      `BEGIN; WITH s AS MATERIALIZED (SELECT "id", "lastSeq", "workspaceId", "projectId", "agentId" FROM sessions
         WHERE "id" = ${id} FOR UPDATE)
       SELECT s."lastSeq", s."workspaceId", s."projectId", s."agentId", r."leaseOwner" FROM s
       LEFT JOIN LATERAL (SELECT "leaseOwner" FROM jobs WHERE "kind" = '${SESSION_TURN_KIND}' AND "key" = s."id"
         FOR SHARE) r ON true`,
    )) as unknown as pg.QueryResult<{
      lastSeq: number;
      workspaceId: string;
      projectId: string;
      agentId: string;
      leaseOwner: string | null;
    }>[];
    const row = head?.rows[0];
    if (!row) throw new SessionGone(lease.sessionId);
    if (row.leaseOwner !== lease.token) throw leaseLost(lease.sessionId);
    const { events, status, pendingActionsOnly, usage, releaseGeneration, outcome } = plan(row.lastSeq);
    const used = sessionUsageOf(events);
    const stored = await appendEvents(client, lease.sessionId, events, {
      ...(used ? { set: (at: (value: unknown) => string) => sessionUsageSet(used, at, "u") } : {}),
    });
    if (usage) await recordUsages(client, usage);
    const released =
      releaseGeneration !== undefined &&
      ((
        await client.query(releaseOwnJobSql(`'${SESSION_TURN_KIND}'`, "$1", "$2", "$3", "true"), [
          lease.sessionId,
          lease.token,
          releaseGeneration,
        ])
      ).rowCount ?? 0) > 0;
    if (status?.status === "idle" && onIdle) {
      const session = {
        id: lease.sessionId,
        workspaceId: row.workspaceId,
        projectId: row.projectId,
        agentId: row.agentId,
      };
      await onIdle.run(client, session, status, stored);
    }
    const setOutcome = outcome ? `"outcome" = ${client.escapeLiteral(JSON.stringify(outcome))}::jsonb, ` : "";
    if (status) {
      const stopReason = status.stopReason === null ? "NULL" : client.escapeLiteral(status.stopReason);
      await client.query(
        `UPDATE sessions SET ${setOutcome}"status" = ${client.escapeLiteral(status.status)}, "stopReason" = ${stopReason},
           "pendingActions" = ${client.escapeLiteral(JSON.stringify(status.pendingActions))}::jsonb, "updatedAt" = now()
         WHERE "id" = ${id}; COMMIT`,
      );
    } else if (pendingActionsOnly) {
      await client.query(
        `UPDATE sessions SET ${setOutcome}"pendingActions" = ${client.escapeLiteral(JSON.stringify(pendingActionsOnly))}::jsonb
         WHERE "id" = ${id}; COMMIT`,
      );
    } else if (outcome) {
      await client.query(`UPDATE sessions SET ${setOutcome}"updatedAt" = now() WHERE "id" = ${id}; COMMIT`);
    } else {
      await client.query("COMMIT");
    }
    committed = true;
    return { stored, released };
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    closeNotices(client, pool, committed);
    client.release(broken);
  }
}

interface OneStatementRow {
  lastSeq: number;
  leaseOwner: string | null;
  stored: EventRow[] | null;
  released: boolean;
}

/**
 * `plan` committed in one statement when the session's head is still `expectedSeq`: the session row is locked, then
 * the lease row read `FOR SHARE` (the order of the transaction path), and only if the lease is ours and the head
 * unchanged are the events appended (gap-free after it), the head updated, the usage counted and, when asked, the job
 * released. Null when the head moved (nothing was written: the caller plans again on the real head).
 */
async function commitInOneStatement(
  pool: pg.Pool,
  lease: Lease,
  expectedSeq: number,
  plan: CommitPlan,
): Promise<Committed | null> {
  const { events, status, pendingActionsOnly, usage, releaseGeneration, outcome } = plan;
  const params: unknown[] = [lease.sessionId, SESSION_TURN_KIND, lease.token, expectedSeq];
  const at = (value: unknown) => `$${params.push(value)}`;
  const setOutcome = outcome ? `, "outcome" = ${at(JSON.stringify(outcome))}::jsonb` : "";
  const head = status
    ? `, "status" = ${at(status.status)}, "stopReason" = ${at(status.stopReason)},
       "pendingActions" = ${at(JSON.stringify(status.pendingActions))}::jsonb`
    : pendingActionsOnly
      ? `, "pendingActions" = ${at(JSON.stringify(pendingActionsOnly))}::jsonb`
      : "";
  const used = sessionUsageOf(events);
  const append = appendCtes(at, {
    sessionIdSql: "$1",
    events,
    set: (used ? head + sessionUsageSet(used, at, "u") : head) + setOutcome,
    from: "head",
    where: 'head."id" = u."id" AND head."leaseOwner" = $3 AND head."lastSeq" = $4',
    returning: `"seq", "id", "type", "payload", ${EVENT_CREATED_AT}`,
  });
  const counted = usage ? usageInsertSql(usage, params, "EXISTS (SELECT 1 FROM bump)") : null;
  const release =
    releaseGeneration !== undefined
      ? releaseOwnJobSql("$2", "$1", "$3", at(releaseGeneration), "EXISTS (SELECT 1 FROM bump)")
      : null;
  const { rows } = await pool.query<OneStatementRow>(
    prepared(
      `WITH s AS MATERIALIZED (
       SELECT "id", "lastSeq" FROM sessions WHERE "id" = $1 FOR UPDATE
     ), head AS MATERIALIZED (
       SELECT s."id", s."lastSeq", r."leaseOwner" FROM s
       LEFT JOIN LATERAL (SELECT "leaseOwner" FROM jobs WHERE "kind" = $2 AND "key" = s."id" FOR SHARE) r ON true
     ), ${append}${counted ? `, counted AS (${counted})` : ""}${release ? `, released AS (${release})` : ""}
     SELECT head."lastSeq", head."leaseOwner", ${release ? "EXISTS (SELECT 1 FROM released)" : "false"} AS "released",
       CASE WHEN EXISTS (SELECT 1 FROM bump) THEN
         (SELECT COALESCE(json_agg(appended ORDER BY "seq"), '[]'::json) FROM appended) END AS "stored"
     FROM head`,
      params,
    ),
  );
  const row = rows[0];
  if (!row) throw new SessionGone(lease.sessionId);
  if (row.leaseOwner !== lease.token) throw leaseLost(lease.sessionId);
  if (!row.stored) return null;
  await announceAppended(pool, lease.sessionId, row.stored);
  return { stored: row.stored.map(toWireEvent), released: row.released };
}
