import type pg from "pg";
import type { AppContext } from "../../context.js";
import { redactsStoredInput } from "../../guardrails/index.js";
import { AppError } from "../../http/app-error.js";
import { insertSession } from "../../sessions/index.js";
import { publishWebhookEvent } from "../../webhooks/index.js";
import type { AutomationRow } from "../automation-row.js";
import type { PreparedFiring } from "./prepare-firing.js";

/** The identity of one firing: a manual run's id, or the schedule time (unique per automation). */
export interface Firing {
  runId: string;
  triggerKind: "schedule" | "manual";
  scheduledFor: Date | null;
}

export type FiringOutcome =
  | { status: "started"; runId: string; sessionId: string }
  | { status: "error"; runId: string; error: string }
  | { status: "already_recorded" };

/**
 * Records a firing in the caller's transaction (fenced on its job's lease, the automation row locked): the run record
 * and its session (with the prompt as its first `user.message`, its turn requested) commit together, or the run is
 * recorded as `error` when the agent has no usable version or a blocking budget is exhausted. A firing already
 * recorded (the same run id, or the same schedule time) is not recorded again: a retried job fires once.
 */
export async function commitFiring(
  ctx: AppContext,
  client: pg.PoolClient,
  row: AutomationRow,
  firing: Firing,
  prepared: PreparedFiring,
): Promise<FiringOutcome> {
  if (await alreadyRecorded(client, row.id, firing)) return { status: "already_recorded" };
  if (!prepared.ok) return recordError(ctx, client, row, firing, prepared.error);
  let session: { id: string };
  try {
    // Reserves the session on the blocking budgets first: when one has no room, nothing was written.
    session = await insertSession(client, {
      workspaceId: row.workspaceId,
      projectId: row.projectId,
      agentId: prepared.agent.agentId,
      agentVersion: prepared.agent.version,
      title: row.name,
      metadata: { automationId: row.id, automationRunId: firing.runId },
      settings: prepared.settings,
      events: [{ type: "user.message", content: [{ type: "text", text: row.prompt }] }],
      parentSessionId: null,
      ...(row.outcome ? { loop: { outcome: row.outcome } } : {}),
      // Messages posted to the session later are redacted where they are stored (the prompt is the automation's own).
      screensInput: redactsStoredInput(prepared.agent.config.guardrails ?? []),
    });
  } catch (error) {
    if (!(error instanceof AppError && error.code === "budget.exceeded")) throw error;
    return recordError(ctx, client, row, firing, `Budget exceeded: ${error.message}`);
  }
  await insertRun(ctx, client, row, firing, { status: "started", sessionId: session.id, error: null });
  return { status: "started", runId: firing.runId, sessionId: session.id };
}

/** Records a firing that created no session (agent unavailable, budget exceeded, skipped by the overlap policy). */
export async function recordError(
  ctx: AppContext,
  client: pg.PoolClient,
  row: AutomationRow,
  firing: Firing,
  error: string,
): Promise<FiringOutcome> {
  if (await alreadyRecorded(client, row.id, firing)) return { status: "already_recorded" };
  await insertRun(ctx, client, row, firing, { status: "error", sessionId: null, error });
  return { status: "error", runId: firing.runId, error };
}

async function alreadyRecorded(client: pg.PoolClient, automationId: string, firing: Firing): Promise<boolean> {
  const { rowCount } = await client.query(
    `SELECT 1 FROM automation_runs
     WHERE "id" = $1 OR ("automationId" = $2 AND "scheduledFor" = $3::timestamptz)`,
    [firing.runId, automationId, firing.scheduledFor],
  );
  return (rowCount ?? 0) > 0;
}

async function insertRun(
  ctx: AppContext,
  client: pg.PoolClient,
  row: AutomationRow,
  firing: Firing,
  result: { status: "started" | "error"; sessionId: string | null; error: string | null },
): Promise<void> {
  await client.query(
    `INSERT INTO automation_runs ("id", "automationId", "projectId", "triggerKind", "scheduledFor", "status",
       "sessionId", "error")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      firing.runId,
      row.id,
      row.projectId,
      firing.triggerKind,
      firing.scheduledFor,
      result.status,
      result.sessionId,
      result.error,
    ],
  );
  const common = {
    projectId: row.projectId,
    automationId: row.id,
    runId: firing.runId,
    triggerKind: firing.triggerKind,
  };
  await publishWebhookEvent(ctx, client, {
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    orderKey: row.id,
    ...(result.status === "started"
      ? { type: "automation.run.started", data: { ...common, sessionId: result.sessionId! } }
      : { type: "automation.run.error", data: { ...common, error: result.error ?? "" } }),
  });
}
