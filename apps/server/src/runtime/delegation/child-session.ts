import type { RosterEntry } from "@agent-platform/contract";
import { loadAgentVersion } from "../../agents/index.js";
import { reserveUsage } from "../../budgets/index.js";
import type { AppContext } from "../../context.js";
import { AppError } from "../../http/app-error.js";
import { newId } from "../../ids.js";
import { type Claim, insertClaimed } from "../../jobs/index.js";
import { inTransaction } from "../../lib/transaction.js";
import {
  appendEvents,
  requestTurn,
  resolveExecutionSettings,
  SESSION_TURN_KIND,
  saveSessionLoopSettings,
} from "../../sessions/index.js";
import type { SessionRuntimeInfo } from "../tools/types.js";

export interface ChildSession {
  id: string;
  /** Set when this call created the child with its work already claimed by the caller (foreground). */
  claim?: Claim;
  /** The child existed already: the delegation is being resumed after a crash. */
  resumed: boolean;
}

export class DelegationRefused extends Error {
  override readonly name = "DelegationRefused";
}

/** The session at the top of the coordinator's delegation tree. */
async function rootOf(ctx: AppContext, sessionId: string): Promise<string> {
  const { rows } = await ctx.db.pool.query<{ delegationRoot: string | null }>(
    `SELECT "delegationRoot" FROM session_loop_settings WHERE "sessionId" = $1`,
    [sessionId],
  );
  return rows[0]?.delegationRoot ?? sessionId;
}

/** Subagent sessions already spawned in the tree under `root`. */
async function spawnedIn(ctx: AppContext, root: string): Promise<number> {
  const { rows } = await ctx.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM session_loop_settings WHERE "delegationRoot" = $1`,
    [root],
  );
  return rows[0]?.n ?? 0;
}

/** The child session a tool use created earlier (a delegation re-run after a crash reuses it). */
export async function childOfToolUse(ctx: AppContext, toolUseId: string): Promise<string | undefined> {
  const { rows } = await ctx.db.pool.query<{ sessionId: string }>(
    `SELECT "sessionId" FROM session_loop_settings WHERE "delegatedBy" = $1`,
    [toolUseId],
  );
  return rows[0]?.sessionId;
}

export function taskMessage(task: string, entry: RosterEntry): string {
  if (!entry.outputSchema) return task;
  return `${task}\n\nAnswer with JSON that matches this JSON Schema:\n${JSON.stringify(entry.outputSchema)}`;
}

/**
 * Creates the child session of a delegation, idempotently per tool use: the pinned agent version of the roster entry
 * (an archived subagent still runs: archiving only blocks new roster links), execution settings resolved from that
 * version's defaults, the task as its first `user.message`, and loop settings (no operator in foreground, read
 * confinement and model override from the entry). In foreground the work request is inserted already claimed by the
 * caller (who runs it), in background it is requested normally.
 */
export async function createChildSession(
  ctx: AppContext,
  input: {
    coordinator: SessionRuntimeInfo;
    entry: RosterEntry;
    task: string;
    toolUseId: string;
    maxDelegations: number | undefined;
    /** Foreground: lease token and duration of the caller. */
    claimAs?: { token: string; leaseMs: number };
  },
): Promise<ChildSession> {
  const existing = await childOfToolUse(ctx, input.toolUseId);
  if (existing) return { id: existing, resumed: true };

  const { coordinator, entry } = input;
  const root = await rootOf(ctx, coordinator.id);
  if (input.maxDelegations !== undefined) {
    const spawned = await spawnedIn(ctx, root);
    if (spawned >= input.maxDelegations) {
      throw new DelegationRefused(
        `Delegation refused: the delegation budget is exhausted (maxDelegations ${input.maxDelegations}, ` +
          `${spawned} subagent sessions already started). Do not delegate again: conclude with what you have.`,
      );
    }
  }
  const agent = await loadAgentVersion(ctx, coordinator.projectId, entry.agentId, entry.version);
  const scope = { workspaceId: coordinator.workspaceId, projectId: coordinator.projectId };
  const execution = await resolveExecutionSettings(ctx, scope, {}, agent.config.defaults);
  const id = newId("session");
  const background = entry.mode === "background";
  const claim = await inTransaction(ctx.db.pool, async (client) => {
    // Reserved first: when a blocking budget has no room for the subagent's session, nothing is written.
    const exceeded = await reserveUsage(client, {
      workspaceId: coordinator.workspaceId,
      agentId: agent.agentId,
      reserve: [{ meter: "sessions", amount: 1 }],
      check: ["tokens", "model_calls"],
    });
    if (exceeded) {
      const owner = exceeded.scope === "workspace" ? "the workspace" : "the subagent";
      throw new DelegationRefused(
        `Delegation refused: ${owner} has used ${exceeded.used} of its ${exceeded.limit} ${exceeded.meter} budget`,
      );
    }
    await client.query(
      `INSERT INTO sessions ("id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata",
         "environmentId", "vaultIds", "resources", "parentSessionId")
       VALUES ($1, $2, $3, $4, $5, $6, '{}'::jsonb, $7, $8::text[], $9::jsonb, $10)`,
      [
        id,
        coordinator.projectId,
        coordinator.workspaceId,
        agent.agentId,
        agent.version,
        `delegate_to_${entry.role}`,
        execution.environmentId,
        execution.vaultIds,
        JSON.stringify(execution.resources),
        coordinator.id,
      ],
    );
    await saveSessionLoopSettings(client, id, {
      operator: background,
      readonly: entry.readonly === true,
      model: entry.model ?? null,
      delegatedBy: input.toolUseId,
      delegationRoot: root,
    });
    await appendEvents(client, id, [
      { type: "user.message", payload: { content: [{ type: "text", text: taskMessage(input.task, entry) }] } },
    ]);
    if (!background && input.claimAs) {
      const lease = { kind: SESSION_TURN_KIND, key: id, token: input.claimAs.token };
      return insertClaimed(client, lease, {}, input.claimAs.leaseMs);
    }
    await requestTurn(client, id);
    return undefined;
  });
  return { id, resumed: false, ...(claim ? { claim } : {}) };
}

export function isRefusal(error: unknown): error is DelegationRefused | AppError {
  return error instanceof DelegationRefused || error instanceof AppError;
}
