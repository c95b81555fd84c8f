import type { UpdateAgentInput } from "@agent-platform/contract";
import { type AgentDraft, canonicalJson } from "./agent-draft.js";

/** An update body without the optimistic-lock `version`. */
export type AgentPatch = Omit<UpdateAgentInput, "version">;

/** Fields whose `null` clears the value (the schema refuses `null` everywhere else). */
const CLEARABLE = new Set<keyof AgentPatch>(["multiagent", "browser", "defaults", "recordBrowser"]);

/**
 * Patch semantics of an update:
 * - an omitted field keeps its value;
 * - lists and configuration objects replace the whole value (no field-level merge);
 * - `metadata` merges by key, and an empty-string value removes the key;
 * - `null` clears `multiagent`, `browser`, `defaults` and `recordBrowser`.
 */
export function applyAgentPatch(current: AgentDraft, patch: AgentPatch): AgentDraft {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch) as [keyof AgentPatch, unknown][]) {
    if (value === undefined) continue;
    if (key === "metadata") {
      next.metadata = mergeMetadata(current.metadata ?? {}, value as Record<string, string>);
    } else if (value === null) {
      if (!CLEARABLE.has(key)) throw new Error(`null is not a clearing signal for ${key}`);
      delete next[key];
    } else {
      next[key] = value;
    }
  }
  return next as AgentDraft;
}

export function mergeMetadata(current: Record<string, string>, patch: Record<string, string>): Record<string, string> {
  const merged = { ...current, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === "") delete merged[key];
  return merged;
}

/** Top-level fields whose value differs between two drafts. */
export function changedFields(before: AgentDraft, after: AgentDraft): Set<keyof AgentDraft> {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)] as (keyof AgentDraft)[]);
  return new Set([...keys].filter((key) => canonicalJson(before[key]) !== canonicalJson(after[key])));
}
