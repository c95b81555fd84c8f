import type { SessionLogEvent } from "@agent-platform/sdk";
import type { ComponentType } from "react";
import { CompactionEntry } from "./compaction-entry.js";
import type { EntryProps } from "./entry-props.js";
import { GuardrailEntry } from "./guardrail-entry.js";
import { OutcomeEntry } from "./outcome-entry.js";
import { McpUnavailableEntry, SessionErrorEntry } from "./problem-entries.js";
import { InterruptEntry, StatusIdleEntry, StatusRunningEntry } from "./status-entries.js";
import { ThinkingEntry } from "./thinking-entry.js";
import { UnknownEntry } from "./unknown-entry.js";
import { UsageEntry } from "./usage-entry.js";

/**
 * The view of each log entry type that has a row of its own (messages and tool uses are rows of their own, see
 * `timeline-rows.ts`). A new entry type gets a component and a line here; until then `UnknownEntry` shows it readably.
 */
// biome-ignore lint/suspicious/noExplicitAny: each component takes its own entry type, chosen by `type` below
const ENTRY_VIEWS: Record<string, ComponentType<EntryProps<any>>> = {
  "session.status_running": StatusRunningEntry,
  "session.status_idle": StatusIdleEntry,
  "user.interrupt": InterruptEntry,
  "session.error": SessionErrorEntry,
  "session.mcp_server_unavailable": McpUnavailableEntry,
  "agent.usage": UsageEntry,
  "agent.thinking": ThinkingEntry,
  "session.compaction": CompactionEntry,
  "session.outcome_evaluation": OutcomeEntry,
  "session.guardrail": GuardrailEntry,
};

export function EntryView({ entry, duration }: { entry: SessionLogEvent; duration?: number }) {
  const View = ENTRY_VIEWS[entry.type] ?? UnknownEntry;
  return <View entry={entry} {...(duration !== undefined ? { duration } : {})} />;
}

/** Entry types a reader may hide to see the conversation only. */
export const QUIET_TYPES = {
  usage: new Set(["agent.usage"]),
  status: new Set(["session.status_running", "session.status_idle"]),
};
