import type pg from "pg";
import type { AppContext } from "../context.js";

/** Channel of endpoint changes; payload: the workspace id. */
const CHANNEL = "webhook_endpoints";

/**
 * Which workspaces have an enabled webhook endpoint, per process: publishing an event (every session turn ends with
 * one) costs nothing for a workspace without endpoints. Entries are dropped when any process changes the workspace's
 * endpoints (NOTIFY at the commit of the change) and all at once when the shared listener reconnects.
 */
class EndpointPresence {
  private readonly known = new Map<string, boolean>();
  private listening = false;

  constructor(private readonly ctx: AppContext) {}

  async has(db: Pick<pg.Pool, "query">, workspaceId: string): Promise<boolean> {
    this.listen();
    const cached = this.known.get(workspaceId);
    if (cached !== undefined) return cached;
    const { rows } = await db.query<{ present: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE "workspaceId" = $1 AND "enabled") AS "present"`,
      [workspaceId],
    );
    const present = rows[0]?.present === true;
    if (this.known.size > 50_000) this.known.clear();
    this.known.set(workspaceId, present);
    return present;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.ctx.listener.subscribe(CHANNEL, {
      onNotification: (workspaceId) => this.known.delete(workspaceId),
      onConnected: () => this.known.clear(),
    });
  }
}

const presences = new WeakMap<AppContext, EndpointPresence>();

export function endpointPresence(ctx: AppContext): EndpointPresence {
  let presence = presences.get(ctx);
  if (!presence) {
    presence = new EndpointPresence(ctx);
    presences.set(ctx, presence);
  }
  return presence;
}

/** Tells every process that the workspace's endpoints changed (delivered at the commit of `db`'s transaction). */
export async function announceEndpointChange(db: Pick<pg.Pool, "query">, workspaceId: string): Promise<void> {
  await db.query("SELECT pg_notify($1, $2)", [CHANNEL, workspaceId]);
}
