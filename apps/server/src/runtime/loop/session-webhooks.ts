import type pg from "pg";
import type { AppContext } from "../../context.js";
import type { CommittedSession, IdleHook, StatusChange, StoredEvent } from "../../sessions/index.js";
import { hasWebhookEndpoints, type PublishedEvent, publishWebhookEvent } from "../../webhooks/index.js";

/**
 * The webhook events of a session going idle, published in the commit that writes the status (so a delivery exists
 * exactly when the status does): `session.error` when the turn wrote one, `session.requires_action` with the pending
 * actions, `session.outcome_evaluated` when the turn ends with its graded answer, then `session.idle` with the stop
 * reason. One session's events reach an endpoint in this order. A workspace
 * without endpoints has nothing to publish, and its commits need no transaction for it.
 */
export function sessionWebhooks(ctx: AppContext): IdleHook {
  return {
    applies: (workspaceId) => hasWebhookEndpoints(ctx, workspaceId),
    run: (client, session, status, stored) => publishIdle(ctx, client, session, status, stored),
  };
}

async function publishIdle(
  ctx: AppContext,
  client: pg.PoolClient,
  session: CommittedSession,
  status: StatusChange,
  stored: StoredEvent[],
): Promise<void> {
  const base = { projectId: session.projectId, sessionId: session.id, agentId: session.agentId };
  const events: PublishedEvent[] = [];
  const publish = (type: PublishedEvent["type"], data: PublishedEvent["data"]) =>
    events.push({ workspaceId: session.workspaceId, projectId: session.projectId, orderKey: session.id, type, data });
  const error = stored.find((e) => e.type === "session.error")?.error as { code: string; message: string } | undefined;
  if (error) publish("session.error", { ...base, error: { code: error.code, message: error.message } });
  if (status.stopReason === "requires_action") {
    publish("session.requires_action", { ...base, pendingActions: status.pendingActions });
  }
  const graded = stored.findLast((e) => e.type === "session.outcome_evaluation" && e.revise !== true);
  if (graded) {
    const state = graded.verdict === "passed" ? "passed" : "failed";
    publish("session.outcome_evaluated", { ...base, state, revisions: Number(graded.revision) });
  }
  publish("session.idle", { ...base, stopReason: status.stopReason ?? "end_turn" });
  for (const event of events) await publishWebhookEvent(ctx, client, event);
}
