import type pg from "pg";
import type { AppContext } from "../../context.js";
import { GUARDRAIL_ENTRY } from "../../guardrails/index.js";
import type { CommittedSession, IdleHook, StoredEvent } from "../../sessions/index.js";
import { publishWebhookEvent } from "../../webhooks/index.js";
import { EV } from "./events.js";

/**
 * The guardrail decisions of the turn a pass works on, for the `session.guardrail` webhook events sent when the turn
 * ends (one per triggered decision, in log order, before `session.idle`, in the commit that ends the turn). The
 * decisions are those of the log the pass has read since the turn's `session.status_running`, and those its own
 * commits stored since (not read back yet).
 */
export class TurnDecisions {
  private committed: StoredEvent[] = [];

  /** Follows what a commit stored. */
  track(stored: readonly StoredEvent[]): void {
    for (const event of stored) {
      if (event.type === EV.statusRunning) this.committed = [];
      else if (event.type === GUARDRAIL_ENTRY && event.triggered === true) this.committed.push(event);
    }
  }

  /** The idle hook publishing the turn's decisions before the other idle events (`base`), or `base` alone. */
  hook(ctx: AppContext, log: readonly StoredEvent[], base: IdleHook | undefined): IdleHook | undefined {
    if (!base) return base;
    return {
      applies: (workspaceId) => base.applies(workspaceId),
      run: async (client, session, status, stored) => {
        await publishDecisions(ctx, client, session, this.inTurn(log, stored));
        await base.run(client, session, status, stored);
      },
    };
  }

  private inTurn(log: readonly StoredEvent[], stored: readonly StoredEvent[]): StoredEvent[] {
    const found = new Map<string, StoredEvent>();
    for (let i = log.length - 1; i >= 0; i--) {
      const event = log[i]!;
      if (event.type === EV.statusRunning) break;
      if (event.type === GUARDRAIL_ENTRY && event.triggered === true) found.set(event.id, event);
    }
    for (const event of [...this.committed, ...stored]) {
      if (event.type === GUARDRAIL_ENTRY && event.triggered === true) found.set(event.id, event);
    }
    return [...found.values()].sort((a, b) => a.seq - b.seq);
  }
}

async function publishDecisions(
  ctx: AppContext,
  client: pg.PoolClient,
  session: CommittedSession,
  decisions: readonly StoredEvent[],
): Promise<void> {
  for (const decision of decisions) {
    await publishWebhookEvent(ctx, client, {
      workspaceId: session.workspaceId,
      projectId: session.projectId,
      orderKey: session.id,
      type: "session.guardrail",
      data: {
        projectId: session.projectId,
        sessionId: session.id,
        agentId: session.agentId,
        guardrail: String(decision.guardrail),
        stage: decision.stage as "input" | "tool_result" | "output",
        check: String(decision.check),
        action: decision.action as "block" | "redact" | "flag",
        seq: decision.seq,
      },
    });
  }
}
