import type pg from "pg";
import type { AppContext } from "../context.js";
import { cachePerOwner } from "../lib/notified-cache.js";

/** Channel of endpoint changes; payload: the workspace id. */
const CHANNEL = "webhook_endpoints";

/**
 * Which workspaces have an enabled webhook endpoint, per process: publishing an event (every session turn ends with
 * one) costs nothing for a workspace without endpoints. Entries are dropped when any process changes the workspace's
 * endpoints (`announceEndpointChange`, delivered at the commit of the change), and at once by this process after its
 * own change (`forgetEndpoints`).
 */
const presence = cachePerOwner<boolean>(CHANNEL);

export function workspaceHasEndpoints(
  ctx: Pick<AppContext, "listener">,
  db: Pick<pg.Pool, "query">,
  workspaceId: string,
): Promise<boolean> {
  return presence(ctx).get(workspaceId, async () => {
    const { rows } = await db.query<{ present: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE "workspaceId" = $1 AND "enabled") AS "present"`,
      [workspaceId],
    );
    return rows[0]?.present === true;
  });
}

/** This process changed the workspace's endpoints (call after the change committed). */
export function forgetEndpoints(ctx: Pick<AppContext, "listener">, workspaceId: string): void {
  presence(ctx).forget(workspaceId);
}

/** Tells every process that the workspace's endpoints changed (delivered at the commit of `db`'s transaction). */
export async function announceEndpointChange(db: Pick<pg.Pool, "query">, workspaceId: string): Promise<void> {
  await db.query("SELECT pg_notify($1, $2)", [CHANNEL, workspaceId]);
}
