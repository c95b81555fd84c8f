import type { PendingAction } from "@agent-platform/contract";
import type pg from "pg";
import { JobLeaseLost } from "../../jobs/index.js";
import { appendEvents, type NewEvent, SESSION_TURN_KIND, type StoredEvent } from "../../sessions/index.js";

/** The claim a worker pass holds on a session: the lease token of its `session.turn` job. */
export interface Lease {
  sessionId: string;
  token: string;
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
export type IdleHook = (
  client: pg.PoolClient,
  session: CommittedSession,
  status: StatusChange,
  stored: StoredEvent[],
) => Promise<void>;

export interface CommitPlan {
  events: NewEvent[];
  /** The session head (`status`, `stopReason`, `pendingActions`) written in the same transaction as the events. */
  status?: StatusChange;
  /** Only the head changes (no event). */
  pendingActionsOnly?: PendingAction[];
}

/**
 * Appends loop events in one transaction fenced by the lease. One statement locks the session row and then reads the
 * job row `FOR SHARE` (the order every writer uses: ingestion locks `sessions`, then `jobs`): a concurrent
 * claim waits for this commit, or this commit sees the new owner and rolls back. The plan is built from the current
 * head `lastSeq` (so a caller can decide on what really is the end of the log); the events are appended gap-free and
 * the head (`status`, `stopReason`, `pendingActions`) updated in the same transaction, with `onIdle` (webhook events)
 * when the session goes idle. Returns the stored events.
 */
export async function commitFenced(
  pool: pg.Pool,
  lease: Lease,
  plan: (headSeq: number) => CommitPlan,
  onIdle?: IdleHook,
): Promise<StoredEvent[]> {
  const client = await pool.connect();
  // The statements around the append travel as simple multi-statement queries (one round trip each), so their values
  // are quoted literals (`escapeLiteral`) rather than parameters.
  const id = client.escapeLiteral(lease.sessionId);
  let broken: Error | undefined;
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
    const { events, status, pendingActionsOnly } = plan(row.lastSeq);
    const stored = await appendEvents(client, lease.sessionId, events);
    if (status?.status === "idle" && onIdle) {
      const session = {
        id: lease.sessionId,
        workspaceId: row.workspaceId,
        projectId: row.projectId,
        agentId: row.agentId,
      };
      await onIdle(client, session, status, stored);
    }
    if (status) {
      const stopReason = status.stopReason === null ? "NULL" : client.escapeLiteral(status.stopReason);
      await client.query(
        `UPDATE sessions SET "status" = ${client.escapeLiteral(status.status)}, "stopReason" = ${stopReason},
           "pendingActions" = ${client.escapeLiteral(JSON.stringify(status.pendingActions))}::jsonb, "updatedAt" = now()
         WHERE "id" = ${id}; COMMIT`,
      );
    } else if (pendingActionsOnly) {
      await client.query(
        `UPDATE sessions SET "pendingActions" = ${client.escapeLiteral(JSON.stringify(pendingActionsOnly))}::jsonb
         WHERE "id" = ${id}; COMMIT`,
      );
    } else {
      await client.query("COMMIT");
    }
    return stored;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
