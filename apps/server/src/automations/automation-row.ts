import type { Automation, DefaultsResourceSchema, Outcome, Trigger } from "@agent-platform/contract";
import type { z } from "zod";
import { describeCron } from "./schedule/cron.js";

type StoredResource = z.infer<typeof DefaultsResourceSchema>;

/** An `automations` row as hand-written SQL reads it (`AUTOMATION_COLUMNS`). */
export interface AutomationRow {
  id: string;
  projectId: string;
  workspaceId: string;
  name: string;
  description: string | null;
  agentId: string;
  agentVersion: number | null;
  prompt: string;
  triggerType: "schedule" | "manual";
  cron: string | null;
  timezone: string | null;
  overlap: "skip" | "allow" | "queue_one" | null;
  jitterSeconds: number | null;
  enabled: boolean;
  environmentId: string | null;
  vaultIds: string[];
  resources: StoredResource[];
  outcome: Outcome | null;
  nextFireAt: Date | null;
  queuedFireAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const AUTOMATION_COLUMNS = `"id", "projectId", "workspaceId", "name", "description", "agentId", "agentVersion",
  "prompt", "triggerType", "cron", "timezone", "overlap", "jitterSeconds", "enabled", "environmentId", "vaultIds",
  "resources", "outcome", "nextFireAt", "queuedFireAt", "createdAt", "updatedAt"`;

/** The schedule of a row, when it has one. */
export function scheduleOf(row: AutomationRow): { cron: string; timezone: string } | null {
  return row.triggerType === "schedule" && row.cron && row.timezone ? { cron: row.cron, timezone: row.timezone } : null;
}

export function triggerOf(row: AutomationRow): Trigger {
  const schedule = scheduleOf(row);
  if (!schedule) return { type: "manual" };
  return { type: "schedule", ...schedule, overlap: row.overlap ?? "skip", jitterSeconds: row.jitterSeconds ?? 0 };
}

export function toAutomation(row: AutomationRow): Automation {
  const schedule = scheduleOf(row);
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    agentId: row.agentId,
    agentVersion: row.agentVersion,
    prompt: row.prompt,
    trigger: triggerOf(row),
    enabled: row.enabled,
    environmentId: row.environmentId,
    vaultIds: row.vaultIds ?? [],
    resources: row.resources,
    outcome: row.outcome,
    scheduleDescription: schedule ? describeCron(schedule.cron) : null,
    nextRunAt: row.nextFireAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Whether a row read inside a firing's transaction is the one the firing was prepared from: no user write in between
 * (`updatedAt`), and the same `armed` time when given (the schedule time a schedule or a queued firing is for).
 * Otherwise the firing starts over with the new row.
 */
export function sameRevision(
  locked: AutomationRow,
  prepared: AutomationRow,
  armed?: "nextFireAt" | "queuedFireAt",
): boolean {
  const time = (row: AutomationRow) => (armed ? (row[armed]?.getTime() ?? null) : null);
  return locked.updatedAt.getTime() === prepared.updatedAt.getTime() && time(locked) === time(prepared);
}
