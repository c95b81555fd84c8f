import type {
  AgentCustomToolUseEvent,
  AgentMcpToolUseEvent,
  AgentToolUseEvent,
  SessionGuardrailEvent,
  SessionLogEvent,
  UserCustomToolResultEvent,
  UserToolConfirmationEvent,
} from "@agent-platform/sdk";

type ToolUse = AgentToolUseEvent | AgentMcpToolUseEvent | AgentCustomToolUseEvent;
type ToolAnswer = {
  content: { type: string; text?: string; artifactId?: string; mimeType?: string }[];
  isError: boolean;
  seq: number;
  createdAt: string;
};

/**
 * One line of the timeline: a tool use carries its confirmation and its result, which get no line of their own. Messages
 * and tool uses also carry the guardrail decisions about them (which keep their own line too), so that a redacted
 * message or a withheld result says so where it is read.
 */
export type TimelineRow =
  | {
      kind: "message";
      key: string;
      role: "user" | "agent";
      text: string;
      entry: SessionLogEvent;
      guardrails?: SessionGuardrailEvent[];
    }
  | {
      kind: "tool";
      key: string;
      use: ToolUse;
      confirmation?: UserToolConfirmationEvent;
      result?: ToolAnswer;
      /** Child sessions named by a delegation's input or result. */
      childSessions: string[];
      guardrails?: SessionGuardrailEvent[];
    }
  | { kind: "event"; key: string; entry: SessionLogEvent };

type MessageRow = Extract<TimelineRow, { kind: "message" }>;
type ToolRow = Extract<TimelineRow, { kind: "tool" }>;

const SESSION_ID = /\bsess_[0-9A-Za-z]+\b/g;

function isToolUse(entry: SessionLogEvent): entry is ToolUse {
  return (
    entry.type === "agent.tool_use" || entry.type === "agent.mcp_tool_use" || entry.type === "agent.custom_tool_use"
  );
}

function answerOf(entry: SessionLogEvent): { id: string; answer: ToolAnswer } | undefined {
  if (entry.type === "agent.tool_result" || entry.type === "agent.mcp_tool_result") {
    return {
      id: entry.toolUseId,
      answer: { content: entry.content, isError: entry.isError, seq: entry.seq, createdAt: entry.createdAt },
    };
  }
  if (entry.type === "user.custom_tool_result") {
    const custom = entry as UserCustomToolResultEvent;
    return {
      id: custom.customToolUseId,
      answer: { content: custom.content, isError: custom.isError ?? false, seq: entry.seq, createdAt: entry.createdAt },
    };
  }
  return undefined;
}

/** The rows of a log, in `seq` order (pure: rebuilt from the entries on every change). */
export function timelineRows(entries: readonly SessionLogEvent[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const tools = new Map<string, ToolRow>();
  const messages = new Map<number, MessageRow>();
  for (const entry of entries) {
    const key = String(entry.seq);
    if (entry.type === "user.message" || entry.type === "agent.message") {
      const text = entry.content.map((part) => part.text).join("\n");
      const row: MessageRow = {
        kind: "message",
        key,
        role: entry.type === "user.message" ? "user" : "agent",
        text,
        entry,
      };
      messages.set(entry.seq, row);
      rows.push(row);
      continue;
    }
    if (entry.type === "session.guardrail") attachDecision(rows, messages, tools, entry);
    if (isToolUse(entry)) {
      const row = { kind: "tool" as const, key, use: entry, childSessions: [] as string[] };
      if (entry.name.startsWith("delegate_to_"))
        row.childSessions.push(...(JSON.stringify(entry.input).match(SESSION_ID) ?? []));
      tools.set(entry.id, row);
      rows.push(row);
      continue;
    }
    if (entry.type === "user.tool_confirmation") {
      const row = tools.get(entry.toolUseId);
      if (row) {
        // A new object: rows are compared by identity when the timeline re-renders.
        const updated = { ...row, confirmation: entry };
        replaceRow(rows, row, updated);
        tools.set(entry.toolUseId, updated);
        continue;
      }
    }
    const answer = answerOf(entry);
    if (answer) {
      const row = tools.get(answer.id);
      if (row) {
        const text = answer.answer.content.map((part) => part.text ?? "").join("\n");
        const children = row.use.name.startsWith("delegate_to_") || row.use.name === "collect_delegation";
        const updated = {
          ...row,
          result: answer.answer,
          childSessions: children ? [...new Set([...row.childSessions, ...(text.match(SESSION_ID) ?? [])])] : [],
        };
        replaceRow(rows, row, updated);
        tools.set(answer.id, updated);
        continue;
      }
    }
    rows.push({ kind: "event", key, entry });
  }
  return rows;
}

/** A decision joins the message it checked (`targetSeq`) or the tool use whose result it checked (`toolUseId`). */
function attachDecision(
  rows: TimelineRow[],
  messages: Map<number, MessageRow>,
  tools: Map<string, ToolRow>,
  decision: SessionGuardrailEvent,
): void {
  if (decision.toolUseId !== undefined) {
    const row = tools.get(decision.toolUseId);
    if (!row) return;
    const updated = { ...row, guardrails: [...(row.guardrails ?? []), decision] };
    replaceRow(rows, row, updated);
    tools.set(decision.toolUseId, updated);
    return;
  }
  const row = decision.targetSeq === undefined ? undefined : messages.get(decision.targetSeq);
  if (!row) return;
  const updated = { ...row, guardrails: [...(row.guardrails ?? []), decision] };
  replaceRow(rows, row, updated);
  messages.set(row.entry.seq, updated);
}

function replaceRow(rows: TimelineRow[], old: TimelineRow, updated: TimelineRow): void {
  // The answered row is almost always near the end.
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i] === old) {
      rows[i] = updated;
      return;
    }
  }
}

/** The text a search of the log looks in, per row (what the row shows, lower-cased). Pure. */
export function rowSearchText(row: TimelineRow): string {
  if (row.kind === "message") return row.text.toLowerCase();
  if (row.kind === "tool") {
    const result = row.result?.content.map((part) => part.text ?? "").join("\n") ?? "";
    return `${row.use.name}\n${JSON.stringify(row.use.input)}\n${result}`.toLowerCase();
  }
  return JSON.stringify(row.entry).toLowerCase();
}

/**
 * How long each step took, by `seq` (ms): a model call (`agent.usage`) from the last entry it had in its context to
 * its answer, a turn (`session.status_idle`) from its `session.status_running`. Tool uses carry their own (result time
 * minus use time). Pure.
 */
export function stepDurations(entries: readonly SessionLogEvent[]): Map<number, number> {
  const at = new Map<number, number>();
  const durations = new Map<number, number>();
  let running: number | undefined;
  for (const entry of entries) {
    const time = Date.parse(entry.createdAt);
    at.set(entry.seq, time);
    if (entry.type === "session.status_running") running = time;
    else if (entry.type === "session.status_idle" && running !== undefined) {
      durations.set(entry.seq, time - running);
      running = undefined;
    } else if (entry.type === "agent.usage") {
      const start = at.get(entry.contextSeq);
      if (start !== undefined) durations.set(entry.seq, time - start);
    }
  }
  return durations;
}
