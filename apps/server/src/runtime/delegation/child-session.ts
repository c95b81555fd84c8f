import type { RosterEntry } from "@agent-platform/contract";
import { loadAgentVersion } from "../../agents/index.js";
import type { AppContext } from "../../context.js";
import { redactsStoredInput } from "../../guardrails/index.js";
import { AppError } from "../../http/app-error.js";
import type { Claim } from "../../jobs/index.js";
import { inTransaction } from "../../lib/transaction.js";
import {
  childOfToolUse,
  delegationRootOf,
  delegationsUnder,
  insertChildSession,
  resolveExecutionSettings,
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
  const pool = ctx.db.pool;
  const existing = await childOfToolUse(pool, input.toolUseId);
  if (existing) return { id: existing, resumed: true };

  const { coordinator, entry } = input;
  const root = await delegationRootOf(pool, coordinator.id);
  if (input.maxDelegations !== undefined) {
    const spawned = await delegationsUnder(pool, root);
    if (spawned >= input.maxDelegations) {
      throw new DelegationRefused(
        `Delegation refused: the delegation budget is exhausted (maxDelegations ${input.maxDelegations}, ` +
          `${spawned} subagent sessions already started). Do not delegate again: conclude with what you have.`,
      );
    }
  }
  const agent = await loadAgentVersion(ctx, coordinator.projectId, entry.agentId, entry.version);
  const scope = { workspaceId: coordinator.workspaceId, projectId: coordinator.projectId };
  const settings = await resolveExecutionSettings(ctx, scope, {}, agent.config.defaults);
  const background = entry.mode === "background";
  const child = await inTransaction(pool, (client) =>
    insertChildSession(
      client,
      {
        ...scope,
        agentId: agent.agentId,
        agentVersion: agent.version,
        title: `delegate_to_${entry.role}`,
        metadata: {},
        settings,
        events: [{ type: "user.message", content: [{ type: "text", text: taskMessage(input.task, entry) }] }],
        parentSessionId: coordinator.id,
        screensInput: redactsStoredInput(agent.config.guardrails ?? []),
        loop: {
          operator: background,
          readonly: entry.readonly === true,
          model: entry.model ?? null,
          delegatedBy: input.toolUseId,
          delegationRoot: root,
        },
      },
      // Reserved first: when a blocking budget has no room for the subagent's session, nothing is written.
      (exceeded) => {
        const owner = exceeded.scope === "workspace" ? "the workspace" : "the subagent";
        return new DelegationRefused(
          `Delegation refused: ${owner} has used ${exceeded.used} of its ${exceeded.limit} ${exceeded.meter} budget`,
        );
      },
      !background ? input.claimAs : undefined,
    ),
  );
  return { ...child, resumed: false };
}

export function isRefusal(error: unknown): error is DelegationRefused | AppError {
  return error instanceof DelegationRefused || error instanceof AppError;
}
