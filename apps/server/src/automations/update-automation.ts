import type { Automation, UpdateAutomationInput } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { inTransaction } from "../lib/transaction.js";
import { AUTOMATION_COLUMNS, type AutomationRow, toAutomation } from "./automation-row.js";
import { requireAutomation } from "./automation-store.js";
import { storedOutcome } from "./outcome.js";
import { armSchedule, firstFireTime, type TriggerColumns, triggerColumns } from "./schedule-settings.js";
import { resolveWriteReferences } from "./write-references.js";

interface Scope {
  workspaceId: string;
  projectId: string;
}

/**
 * Patch semantics: only the fields present change (`agentVersion`, `environmentId`, `description` accept null to
 * clear; `trigger` is replaced whole). References are checked only where they changed (spec rule 1). When the
 * schedule changes (cron, time zone, type) or the automation is enabled, the next firing is computed from now; when it
 * is disabled or becomes manual, its job goes. All in one transaction with the row locked.
 */
export async function updateAutomation(
  ctx: AppContext,
  scope: Scope,
  id: string,
  input: UpdateAutomationInput,
): Promise<Automation> {
  const current = await requireAutomation(ctx.db.pool, scope.projectId, id);
  const trigger = input.trigger ? triggerColumns(input.trigger) : undefined;
  const outcome = input.outcome !== undefined ? { outcome: storedOutcome(input.outcome) } : {};
  const refs = await resolveWriteReferences(ctx, scope, current.agentId, input, current);

  const row = await inTransaction(ctx.db.pool, async (client) => {
    const locked = await requireAutomation(client, scope.projectId, id, "update");
    const next: AutomationRow = {
      ...locked,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(trigger ?? {}),
      ...outcome,
      ...refs,
    };
    const rearm = scheduleMoved(locked, next);
    if (rearm) next.nextFireAt = firstFireTime(next);
    if (!next.nextFireAt || next.overlap !== "queue_one") next.queuedFireAt = null;
    const { rows } = await client.query<AutomationRow>(
      `UPDATE automations SET "name" = $2, "description" = $3, "agentVersion" = $4, "prompt" = $5,
         "triggerType" = $6, "cron" = $7, "timezone" = $8, "overlap" = $9, "jitterSeconds" = $10, "enabled" = $11,
         "environmentId" = $12, "vaultIds" = $13::text[], "resources" = $14::jsonb, "nextFireAt" = $15,
         "queuedFireAt" = $16, "outcome" = $17::jsonb, "updatedAt" = now()
       WHERE "id" = $1
       RETURNING ${AUTOMATION_COLUMNS}`,
      [
        id,
        next.name,
        next.description,
        next.agentVersion,
        next.prompt,
        next.triggerType,
        next.cron,
        next.timezone,
        next.overlap,
        next.jitterSeconds,
        next.enabled,
        next.environmentId,
        next.vaultIds,
        JSON.stringify(next.resources),
        next.nextFireAt,
        next.queuedFireAt,
        next.outcome ? JSON.stringify(next.outcome) : null,
      ],
    );
    const updated = rows[0]!;
    if (rearm || updated.jitterSeconds !== locked.jitterSeconds || updated.overlap !== locked.overlap) {
      await armSchedule(client, updated);
    }
    return updated;
  });
  return toAutomation(row);
}

/** Whether the times the schedule fires at changed (the armed firing then no longer stands). */
function scheduleMoved(before: AutomationRow, after: AutomationRow): boolean {
  const keys: (keyof TriggerColumns | "enabled")[] = ["triggerType", "cron", "timezone", "enabled"];
  return keys.some((key) => before[key] !== after[key]);
}
