import type pg from "pg";
import { AppError, notFound } from "../../http/app-error.js";

type Queryable = Pick<pg.Pool, "query">;

/** A session's turn as a dataset case reads it: the user's message, the final answer, the messages before. */
export interface TurnForCase {
  input: string;
  /** The turn's last `agent.message` before its `session.status_idle`; null when it has none (yet). */
  answer: string | null;
  /** User and agent messages before the turn, oldest first (only when asked for). */
  conversation: { role: "user" | "assistant"; text: string }[];
}

interface MessageRow {
  seq: number;
  type: string;
  text: string;
}

/**
 * Reads the messages of the turn that starts at the `user.message` at `seq` (to the turn's `session.status_idle`, or the
 * end of the log), and with `withConversation` every message before it: one statement, message entries only, their
 * text parts joined by PostgreSQL. Not found for a session of another project; `request.invalid` when `seq` is not a
 * `user.message` of the session.
 */
export async function readTurnForCase(
  db: Queryable,
  projectId: string,
  sessionId: string,
  seq: number,
  withConversation: boolean,
): Promise<TurnForCase> {
  const { rows } = await db.query<{ found: boolean; messages: MessageRow[] | null }>(
    `SELECT true AS "found", (
       SELECT json_agg(json_build_object('seq', e."seq", 'type', e."type", 'text', (
           SELECT COALESCE(string_agg(p->>'text', E'\\n'), '') FROM jsonb_array_elements(
             CASE WHEN jsonb_typeof(e."payload"->'content') = 'array' THEN e."payload"->'content' ELSE '[]'::jsonb END) p
           WHERE p->>'type' = 'text')) ORDER BY e."seq")
       FROM session_events e
       WHERE e."sessionId" = s."id" AND e."type" IN ('user.message', 'agent.message')
         AND e."seq" >= CASE WHEN $4::boolean THEN 1 ELSE $3 END
         AND e."seq" <= COALESCE((SELECT min(i."seq") FROM session_events i WHERE i."sessionId" = s."id"
           AND i."seq" > $3 AND i."type" = 'session.status_idle'), s."lastSeq")
     ) AS "messages"
     FROM sessions s WHERE s."id" = $1 AND s."projectId" = $2`,
    [sessionId, projectId, seq, withConversation],
  );
  if (!rows[0]) throw notFound("session.not_found", "Session", sessionId);
  const messages = rows[0].messages ?? [];
  const start = messages.find((m) => m.seq === seq);
  if (start?.type !== "user.message") {
    throw new AppError("request.invalid", `Entry ${seq} of session ${sessionId} is not a user.message`, {
      issues: [{ path: "body.seq", message: "must be the seq of a user.message of the session" }],
    });
  }
  const before = messages.filter((m) => m.seq < seq);
  const after = messages.filter((m) => m.seq > seq && m.type === "agent.message");
  return {
    input: start.text,
    answer: after.length > 0 ? after[after.length - 1]!.text : null,
    conversation: before.map((m) => ({ role: m.type === "user.message" ? "user" : "assistant", text: m.text })),
  };
}
