import type { Guardrail, ModelRef, Scorer } from "@agent-platform/contract";
import type pg from "pg";

/**
 * How the loop runs one session (`session_loop_settings`). A session without a row has an operator, the worker's
 * default cap on model calls per turn, no read confinement and the agent version's own model.
 */
export interface SessionLoopSettings {
  /**
   * Someone can answer confirmations and custom tools. `false` (experiment cases, foreground subagents): a tool use
   * that would wait for an answer ends the turn at once with `session.error` `session.operator_required`.
   */
  operator: boolean;
  /** Cap on model calls per turn; null: the worker default (`WORKER_MAX_MODEL_CALLS`, 12). */
  maxModelCalls: number | null;
  /** Read confinement: only read-only tools, of every origin. */
  readonly: boolean;
  /** Replaces the agent version's model entirely (roster entry `model`). */
  model: ModelRef | null;
  /** The coordinator tool use that created this session (delegation). */
  delegatedBy: string | null;
  /** The session at the top of its delegation tree (delegation). */
  delegationRoot: string | null;
  /** Each turn's final answer is graded against these scorers and revised up to `maxRevisions` times (outcomes). */
  outcome: OutcomeDefinition | null;
  /** Guardrails replacing the agent version's (`[]`: none); null: the agent version's. */
  guardrails: Guardrail[] | null;
}

export interface OutcomeDefinition {
  scorers: Scorer[];
  maxRevisions: number;
}

export const DEFAULT_LOOP_SETTINGS: SessionLoopSettings = {
  operator: true,
  maxModelCalls: null,
  readonly: false,
  model: null,
  delegatedBy: null,
  delegationRoot: null,
  outcome: null,
  guardrails: null,
};

type Queryable = Pick<pg.Pool, "query">;

/** A `session_loop_settings` row aliased `alias` as one JSON object (`SessionLoopSettings`), null when there is none. */
export function loopSettingsJsonSql(alias: string): string {
  return `CASE WHEN ${alias}."sessionId" IS NULL THEN NULL ELSE json_build_object('operator', ${alias}."operator",
    'maxModelCalls', ${alias}."maxModelCalls", 'readonly', ${alias}."readonly", 'model', ${alias}."model",
    'delegatedBy', ${alias}."delegatedBy", 'delegationRoot', ${alias}."delegationRoot", 'outcome', ${alias}."outcome",
    'guardrails', ${alias}."guardrails") END`;
}

/**
 * Stores the loop settings of a session. Write them in the transaction that creates the session, before its first
 * `requestTurn`, so that no worker runs it with the defaults.
 */
export async function saveSessionLoopSettings(
  db: Queryable,
  sessionId: string,
  settings: Partial<SessionLoopSettings>,
): Promise<void> {
  const s = { ...DEFAULT_LOOP_SETTINGS, ...settings };
  if (s.maxModelCalls !== null && (!Number.isInteger(s.maxModelCalls) || s.maxModelCalls < 1)) {
    throw new Error(`maxModelCalls must be a positive integer, got ${s.maxModelCalls}`);
  }
  await db.query(
    `INSERT INTO session_loop_settings
       ("sessionId", "operator", "maxModelCalls", "readonly", "model", "delegatedBy", "delegationRoot", "outcome",
        "guardrails")
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::jsonb, $9::jsonb)
     ON CONFLICT ("sessionId") DO UPDATE SET "operator" = EXCLUDED."operator",
       "maxModelCalls" = EXCLUDED."maxModelCalls", "readonly" = EXCLUDED."readonly", "model" = EXCLUDED."model",
       "delegatedBy" = EXCLUDED."delegatedBy", "delegationRoot" = EXCLUDED."delegationRoot",
       "outcome" = EXCLUDED."outcome", "guardrails" = EXCLUDED."guardrails"`,
    [
      sessionId,
      s.operator,
      s.maxModelCalls,
      s.readonly,
      s.model === null ? null : JSON.stringify(s.model),
      s.delegatedBy,
      s.delegationRoot,
      s.outcome === null ? null : JSON.stringify(s.outcome),
      s.guardrails === null ? null : JSON.stringify(s.guardrails),
    ],
  );
}

export async function loadSessionLoopSettings(db: Queryable, sessionId: string): Promise<SessionLoopSettings> {
  const { rows } = await db.query<SessionLoopSettings>(
    `SELECT "operator", "maxModelCalls", "readonly", "model", "delegatedBy", "delegationRoot", "outcome", "guardrails"
     FROM session_loop_settings
     WHERE "sessionId" = $1`,
    [sessionId],
  );
  return rows[0] ?? DEFAULT_LOOP_SETTINGS;
}
