import type { ConversationMessage } from "../../models/index.js";
import type { StoredEvent } from "../../sessions/index.js";
import { buildConversation } from "./conversation.js";
import { contentText, EV, textContent } from "./events.js";
import { inputDecisions, userTextForModel } from "./guarded-view.js";
import type { ModelStep } from "./log-state.js";

/** Log entry type of a compaction (docs/sessions.md, "Long sessions"). */
export const COMPACTION = EV.compaction;
export const INPUT_TOO_LARGE = "model.input_too_large";

type EnvLike = Readonly<Record<string, string | undefined>>;

export interface ContextSettings {
  /** Share of the window past which the conversation is compacted before a call (`COMPACTION_THRESHOLD`, 0.8). */
  threshold: number;
  /** Model that writes summaries (`COMPACTION_MODEL`); the agent's own when unset. */
  model?: string;
  /** Characters of a tool result the model is shown at most (`TOOL_RESULT_MAX_CHARS`, 50,000). */
  toolResultMaxChars: number;
}

const settingsByEnv = new WeakMap<EnvLike, ContextSettings>();

export function contextSettingsOf(env: EnvLike): ContextSettings {
  let settings = settingsByEnv.get(env);
  if (!settings) {
    const threshold = Number(env.COMPACTION_THRESHOLD ?? 0.8);
    const maxChars = Number(env.TOOL_RESULT_MAX_CHARS ?? 50_000);
    settings = {
      threshold: Number.isFinite(threshold) && threshold > 0.1 && threshold <= 1 ? threshold : 0.8,
      toolResultMaxChars: Number.isInteger(maxChars) && maxChars >= 1_000 ? maxChars : 50_000,
      ...(env.COMPACTION_MODEL?.trim() ? { model: env.COMPACTION_MODEL.trim() } : {}),
    };
    settingsByEnv.set(env, settings);
  }
  return settings;
}

/** About 4 characters per token: the estimate for what no provider has counted yet. */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

/**
 * Characters of the tool results of one model response, together, once the window is known: a quarter of it, counted
 * at 3 characters a token (tool results are mostly code, JSON and markup, which tokenise at 2.5–3 characters a token;
 * a quarter counted at 4 would be a third of the window).
 */
export const toolResultsShare = (window: number): number => Math.floor((window / 4) * 3);

/** What the model is shown of tool results: `maxChars` of each, and with a known window, `stepChars` for a response's. */
export interface ToolResultLimit {
  /** `TOOL_RESULT_MAX_CHARS`. */
  maxChars: number;
  /** `toolResultsShare` of the window, shared by the results of one model response; absent while it is unknown. */
  stepChars?: number;
}

/** The most a single result of a response with `results` results is shown. */
export function toolResultChars(limit: ToolResultLimit, results = 1): number {
  if (limit.stepChars === undefined) return limit.maxChars;
  return Math.min(limit.maxChars, Math.max(200, Math.floor(limit.stepChars / Math.max(1, results))));
}

export interface Compaction {
  seq: number;
  summary: string;
  fromSeq: number;
  toSeq: number;
}

/** The newest `session.compaction` entry: the conversation sent to the model starts with its summary. */
export function latestCompaction(log: readonly StoredEvent[]): Compaction | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    const event = log[i]!;
    if (event.type === COMPACTION) {
      return {
        seq: event.seq,
        summary: String(event.summary),
        fromSeq: Number(event.fromSeq),
        toSeq: Number(event.toSeq),
      };
    }
  }
  return undefined;
}

/** User messages refused as too large for the window (`session.error` `model.input_too_large` names their `seq`). */
function refusedInputs(log: readonly StoredEvent[]): Map<number, string> {
  const refused = new Map<number, string>();
  for (const event of log) {
    if (event.type === EV.sessionError && typeof event.inputSeq === "number") {
      const error = event.error as { code?: string; message?: string } | undefined;
      if (error?.code === INPUT_TOO_LARGE) refused.set(event.inputSeq, error.message ?? "");
    }
  }
  return refused;
}

/** A tool result the model sees: whole up to `max` characters, else its start and a note saying what was cut. */
export function cutToolResult(text: string, max: number): string {
  if (text.length <= max) return text;
  return (
    `${text.slice(0, max)}\n\n[Cut: the model is shown the first ${max} of ${text.length} characters; ` +
    `${text.length - max} more are kept in the session log. Tools that read by offset (knowledge_read, the browser's ` +
    "read, file reads) can fetch the rest from where this stops.]"
  );
}

/**
 * What the model is sent: the newest compaction's summary, then the user messages and model steps after it (a step
 * keeps its tool results), the tool results cut to `limit`, refused inputs replaced by a note. Pure: the same log and
 * limit give the same conversation, so a resumed pass sends what the dead one would have.
 */
export function conversationView(
  log: readonly StoredEvent[],
  steps: readonly ModelStep[],
  limit: ToolResultLimit,
): ConversationMessage[] {
  const compaction = latestCompaction(log);
  const refused = refusedInputs(log);
  const guarded = inputDecisions(log);
  const after = compaction?.toSeq ?? 0;
  const events: StoredEvent[] = [];
  for (const event of log) {
    if (event.seq <= after) continue;
    // An outcome's feedback reaches the model as a user message.
    if (event.type === EV.outcomeEvaluation && event.revise === true) {
      events.push({ ...event, type: EV.userMessage, content: textContent(String(event.feedback)) });
      continue;
    }
    if (event.type !== EV.userMessage) continue;
    const note = refused.get(event.seq);
    if (note === undefined) {
      // Input guardrails: a blocked message is never sent; a redaction whose original the log keeps is applied.
      const text = guarded ? userTextForModel(event, guarded) : undefined;
      if (text === null) continue;
      events.push(text === undefined ? event : { ...event, content: textContent(text) });
      continue;
    }
    events.push({ ...event, content: [{ type: "text", text: `[This message was not read: ${note}]` }] });
  }
  const kept = steps.filter((s) => s.firstSeq > after);
  const messages = buildConversation(events, kept);
  for (const message of messages) {
    if (message.role !== "tool") continue;
    const max = toolResultChars(limit, message.results.length);
    message.results = message.results.map((r) => ({ ...r, output: cutToolResult(r.output, max) }));
  }
  if (!compaction) return messages;
  return [{ role: "user", text: `[Summary of the earlier conversation]\n${compaction.summary}` }, ...messages];
}

/**
 * Prompt tokens of the next call: what the provider counted for the newest call made after the last compaction, plus
 * its output and an estimate of what came since; the whole estimate when no such call exists.
 */
export function promptTokens(log: readonly StoredEvent[], wholeChars: number, maxToolChars: number): number {
  const compactionSeq = latestCompaction(log)?.seq ?? 0;
  for (let i = log.length - 1; i >= 0 && log[i]!.seq > compactionSeq; i--) {
    const usage = log[i]!;
    if (usage.type !== EV.usage) continue;
    let added = 0;
    for (let j = i + 1; j < log.length; j++) added += Math.min(contentText(log[j]!.content).length, maxToolChars);
    return Number(usage.inputTokens) + Number(usage.outputTokens) + estimateTokens(added);
  }
  return estimateTokens(wholeChars);
}
