import type { Automation, CreateAutomationInput } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { newId } from "../ids.js";
import { inTransaction } from "../lib/transaction.js";
import { AUTOMATION_COLUMNS, type AutomationRow, toAutomation } from "./automation-row.js";
import { storedOutcome } from "./outcome.js";
import { armSchedule, firstFireTime, triggerColumns } from "./schedule-settings.js";
import { resolveWriteReferences } from "./write-references.js";

interface Scope {
  workspaceId: string;
  projectId: string;
}

/**
 * Creates an automation: the trigger is validated (400 at `body.trigger.cron` / `.timezone`), then the references
 * (agent and pin, environment, vaults, memory stores: the spec's 422 codes); the row and, for an enabled schedule, its
 * job armed at the first due time commit together.
 */
export async function createAutomation(
  ctx: AppContext,
  scope: Scope,
  input: CreateAutomationInput,
): Promise<Automation> {
  const trigger = triggerColumns(input.trigger);
  const outcome = storedOutcome(input.outcome);
  const refs = await resolveWriteReferences(ctx, scope, input.agentId, {
    agentVersion: input.agentVersion ?? null,
    environmentId: input.environmentId ?? null,
    vaultIds: input.vaultIds ?? [],
    resources: input.resources ?? [],
  });
  const enabled = input.enabled ?? true;
  const nextFireAt = firstFireTime({ ...trigger, enabled });
  const row = await inTransaction(ctx.db.pool, async (client) => {
    const { rows } = await client.query<AutomationRow>(
      `INSERT INTO automations ("id", "projectId", "workspaceId", "name", "description", "agentId", "agentVersion",
         "prompt", "triggerType", "cron", "timezone", "overlap", "jitterSeconds", "enabled", "environmentId",
         "vaultIds", "resources", "nextFireAt", "outcome", "createdAt", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::text[], $17::jsonb, $18,
         $19::jsonb, now(), now())
       RETURNING ${AUTOMATION_COLUMNS}`,
      [
        newId("automation"),
        scope.projectId,
        scope.workspaceId,
        input.name,
        input.description ?? null,
        input.agentId,
        refs.agentVersion ?? null,
        input.prompt,
        trigger.triggerType,
        trigger.cron,
        trigger.timezone,
        trigger.overlap,
        trigger.jitterSeconds,
        enabled,
        refs.environmentId ?? null,
        refs.vaultIds ?? [],
        JSON.stringify(refs.resources ?? []),
        nextFireAt,
        outcome ? JSON.stringify(outcome) : null,
      ],
    );
    const created = rows[0]!;
    if (created.nextFireAt) await armSchedule(client, created);
    return created;
  });
  return toAutomation(row);
}
