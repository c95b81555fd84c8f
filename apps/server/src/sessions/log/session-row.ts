import type { PendingAction, Session, SessionOutcome, SessionResource } from "@agent-platform/contract";

/** What a session runs with; resolved once at creation and stored, never resolved again. */
export interface ExecutionSettings {
  environmentId: string | null;
  vaultIds: string[];
  resources: SessionResource[];
}

/** A `sessions` row as hand-written SQL reads it (`SESSION_COLUMNS`). */
export interface SessionRow {
  id: string;
  projectId: string;
  workspaceId: string;
  agentId: string;
  agentVersion: number;
  title: string | null;
  metadata: Record<string, string>;
  status: string;
  stopReason: string | null;
  pendingActions: PendingAction[];
  environmentId: string | null;
  vaultIds: string[] | null;
  resources: SessionResource[];
  parentSessionId: string | null;
  forkedFromSessionId: string | null;
  forkedFromSeq: number | null;
  lastSeq: number;
  /** BIGINT columns: text as `pg` reads them. */
  inputTokens: string;
  outputTokens: string;
  cacheReadInputTokens: string;
  cacheWriteInputTokens: string;
  reasoningTokens: string;
  costMicroUsd: string;
  costUnknown: boolean;
  outcome: SessionOutcome | null;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
}

export const SESSION_COLUMNS = `"id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata", "status",
  "stopReason", "pendingActions", "environmentId", "vaultIds", "resources", "parentSessionId", "forkedFromSessionId",
  "forkedFromSeq", "lastSeq", "createdAt", "updatedAt", "archivedAt", "inputTokens", "outputTokens",
  "cacheReadInputTokens", "cacheWriteInputTokens", "reasoningTokens", "costMicroUsd", "costUnknown", "outcome"`;

export function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    projectId: row.projectId,
    agent: { id: row.agentId, version: row.agentVersion },
    title: row.title,
    metadata: row.metadata,
    status: row.status as Session["status"],
    stopReason: row.stopReason as Session["stopReason"],
    pendingActions: row.pendingActions,
    environmentId: row.environmentId,
    vaultIds: row.vaultIds ?? [],
    resources: row.resources,
    parentSessionId: row.parentSessionId,
    forkedFrom:
      row.forkedFromSessionId === null ? null : { sessionId: row.forkedFromSessionId, seq: row.forkedFromSeq! },
    lastSeq: row.lastSeq,
    usage: {
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      cacheReadInputTokens: Number(row.cacheReadInputTokens),
      cacheWriteInputTokens: Number(row.cacheWriteInputTokens),
      reasoningTokens: Number(row.reasoningTokens),
      costUsd: row.costUnknown ? null : Number(row.costMicroUsd) / 1_000_000,
    },
    outcome: row.outcome,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}
