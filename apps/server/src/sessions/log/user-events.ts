import type { IngestedEvent, PendingAction, UserEvent } from "@agent-platform/contract";
import type pg from "pg";
import { AppError } from "../../http/app-error.js";
import { appendEvents, type NewEvent } from "./event-log.js";

/**
 * Screens user events where they are stored (input guardrails that redact without keeping the original): the events
 * to store, and, given the entries they were stored as, the entries to append after them (the decisions).
 */
export type StoredInputScreen = (events: UserEvent[]) => {
  events: UserEvent[];
  after: (stored: readonly { seq: number; id: string }[]) => NewEvent[];
};

/** The log entry of a user event: its fields without `type` (a column) and `idempotencyKey` (a column too). */
export function toNewEvent(event: UserEvent): NewEvent {
  const { type, idempotencyKey, ...payload } = event;
  return { type, payload, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) };
}

interface KeyedRow {
  seq: number;
  id: string;
  type: string;
  idempotencyKey: string;
}

/**
 * Appends a batch of user events to a session whose row the caller has locked (`FOR UPDATE`) in the same transaction,
 * so nothing else appends meanwhile: events whose idempotency key the session already has are acknowledged as
 * duplicates of their original entry, answers to tool uses are checked against the pending actions, and the rest is
 * appended in one statement (gap-free `seq`). Returns one acknowledgement per event, in the order sent.
 */
export async function appendUserEvents(
  client: pg.PoolClient,
  sessionId: string,
  pendingActions: PendingAction[],
  events: UserEvent[],
  screen?: StoredInputScreen,
): Promise<{ acks: IngestedEvent[]; appended: number }> {
  const keys = events.flatMap((e) => (e.idempotencyKey !== undefined ? [e.idempotencyKey] : []));
  const existing = new Map<string, KeyedRow>();
  if (keys.length > 0) {
    const { rows } = await client.query<KeyedRow>(
      `SELECT "seq", "id", "type", "idempotencyKey" FROM session_events
       WHERE "sessionId" = $1 AND "idempotencyKey" = ANY($2::text[])`,
      [sessionId, keys],
    );
    for (const row of rows) existing.set(row.idempotencyKey, row);
  }
  const fresh = events.filter((e) => e.idempotencyKey === undefined || !existing.has(e.idempotencyKey));
  await checkAnswers(client, sessionId, pendingActions, fresh);
  const screened = screen && fresh.length > 0 ? screen(fresh) : undefined;
  const stored = await appendEvents(client, sessionId, (screened?.events ?? fresh).map(toNewEvent));
  if (stored.length !== fresh.length) {
    throw new Error(`Session ${sessionId} vanished while its events were appended`);
  }
  const decisions = screened?.after(stored) ?? [];
  if (decisions.length > 0) await appendEvents(client, sessionId, decisions);
  let next = 0;
  const acks = events.map((event): IngestedEvent => {
    const key = event.idempotencyKey;
    const original = key !== undefined ? existing.get(key) : undefined;
    const entry = original ?? stored[next++]!;
    return {
      seq: entry.seq,
      id: entry.id,
      type: entry.type,
      ...(key !== undefined ? { idempotencyKey: key } : {}),
      duplicate: original !== undefined,
    };
  });
  return { acks, appended: stored.length };
}

type Answer = Extract<UserEvent, { type: "user.tool_confirmation" | "user.custom_tool_result" }>;

/**
 * Custom tool uses in the log that no result closed yet, among those answered here but not (yet) in the session's
 * pending actions. A client may answer an `agent.custom_tool_use` as soon as it sees it: the `requires_action` that
 * lists it is committed after it (once the reply's other tools ran), and the answer must not be refused meanwhile.
 */
async function customToolUsesAwaitingStatus(
  client: pg.PoolClient,
  sessionId: string,
  pendingActions: PendingAction[],
  answers: Answer[],
): Promise<Set<string>> {
  const ids = answers
    .filter((a) => a.type === "user.custom_tool_result")
    .map(answeredId)
    .filter((id) => !pendingActions.some((a) => a.toolUseId === id));
  if (ids.length === 0) return new Set();
  const { rows } = await client.query<{ id: string }>(
    `SELECT u."id" FROM session_events u
     WHERE u."sessionId" = $1 AND u."type" = 'agent.custom_tool_use' AND u."id" = ANY($2::text[])
       AND NOT EXISTS (SELECT 1 FROM session_events r WHERE r."sessionId" = $1 AND r."type" = 'agent.tool_result'
                         AND r.payload->>'toolUseId' = u."id")`,
    [sessionId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

function answeredId(event: Answer): string {
  return event.type === "user.tool_confirmation" ? event.toolUseId : event.customToolUseId;
}

/**
 * A confirmation or custom tool result must answer a tool use the session waits on, of the matching kind, once: not
 * twice in one batch, and not again when an earlier answer is in the log but the loop has not consumed it yet.
 */
async function checkAnswers(
  client: pg.PoolClient,
  sessionId: string,
  pendingActions: PendingAction[],
  events: UserEvent[],
): Promise<void> {
  const answers = events.filter(
    (e): e is Answer => e.type === "user.tool_confirmation" || e.type === "user.custom_tool_result",
  );
  if (answers.length === 0) return;
  const inBatch = new Set<string>();
  const logged = await customToolUsesAwaitingStatus(client, sessionId, pendingActions, answers);
  for (const answer of answers) {
    const id = answeredId(answer);
    const kind = answer.type === "user.tool_confirmation" ? "confirmation" : "custom_tool";
    const pending =
      pendingActions.find((a) => a.toolUseId === id) ??
      (logged.has(id) ? { toolUseId: id, kind: "custom_tool" as const } : undefined);
    if (!pending) {
      throw new AppError("session.invalid_event", `Tool use ${id} is not waiting for an answer in this session`, {
        toolUseId: id,
      });
    }
    if (pending.kind !== kind) {
      const expected = pending.kind === "confirmation" ? "user.tool_confirmation" : "user.custom_tool_result";
      throw new AppError("session.invalid_event", `Tool use ${id} waits for a ${expected}, not a ${answer.type}`, {
        toolUseId: id,
      });
    }
    if (inBatch.has(id)) {
      throw new AppError("session.invalid_event", `Tool use ${id} is answered twice in this batch`, { toolUseId: id });
    }
    inBatch.add(id);
  }
  const { rows } = await client.query<{ answered: string }>(
    `SELECT COALESCE(payload->>'toolUseId', payload->>'customToolUseId') AS answered FROM session_events
     WHERE "sessionId" = $1 AND "type" IN ('user.tool_confirmation', 'user.custom_tool_result')
       AND COALESCE(payload->>'toolUseId', payload->>'customToolUseId') = ANY($2::text[])
     LIMIT 1`,
    [sessionId, [...inBatch]],
  );
  if (rows[0]) {
    throw new AppError("session.invalid_event", `Tool use ${rows[0].answered} has already been answered`, {
      toolUseId: rows[0].answered,
    });
  }
}
