import { type ModelSpec, modelCatalogueOf, type ResolvedModel } from "../../models/index.js";
import { compactConversation, planCompaction } from "./compaction.js";
import { contextSettingsOf, conversationView, INPUT_TOO_LARGE, promptTokens } from "./context-view.js";
import { EV, errorEvent, idleEvent } from "./events.js";
import type { LogState } from "./log-state.js";
import { idleStatus, type SessionPass } from "./pass.js";

/** Share of the limit the newest part of the conversation may keep when compacting (the rest is summarised). */
const KEEP_SHARE = 0.4;
/** After a provider's refusal, the kept part is this share of what was refused. */
const KEEP_SHARE_AFTER_REFUSAL = 0.2;

export interface PromptPlan {
  resolved: ResolvedModel;
  messages: ReturnType<typeof conversationView>;
  /** Estimated prompt tokens. */
  tokens: number;
  /** Characters of the prompt (system, messages, tool definitions as JSON). */
  chars: number;
  /** Prompt tokens past which the conversation is compacted first; undefined when the window is unknown. */
  limit?: number;
  /**
   * Past the limit: `compact` when part of the conversation can be summarised, `too_large` when nothing can and the
   * prompt does not fit the window; undefined when the call goes ahead.
   */
  overflow?: "compact" | "too_large";
}

/** The conversation of the next call and its size (in memory only: a session far from its window pays nothing). */
export function planPrompt(
  pass: SessionPass,
  state: LogState,
  spec: ModelSpec,
  system: string | undefined,
  tools: unknown,
): PromptPlan {
  const env = pass.ctx.config.env;
  const resolved = modelCatalogueOf(env).resolve(spec);
  const settings = contextSettingsOf(env);
  const window = resolved.contextWindow;
  // A tool result may take at most a quarter of the window (about 4 characters a token).
  const maxToolChars = window ? Math.min(settings.toolResultMaxChars, window) : settings.toolResultMaxChars;
  const messages = conversationView(pass.log, state.steps, maxToolChars);
  const chars = (system?.length ?? 0) + JSON.stringify(messages).length + JSON.stringify(tools).length;
  const tokens = promptTokens(pass.log, chars, maxToolChars);
  if (!window) return { resolved, messages, tokens, chars };
  const limit = Math.floor(Math.min(settings.threshold * window, window - (spec.maxOutputTokens ?? 0)));
  if (tokens <= limit) return { resolved, messages, tokens, chars, limit };
  // Past the threshold with nothing left to summarise, a prompt that still fits the window is sent as it is.
  const overflow = planCompaction(pass.log, state.steps, limit * KEEP_SHARE)
    ? "compact"
    : tokens + (spec.maxOutputTokens ?? 0) > window
      ? "too_large"
      : undefined;
  return { resolved, messages, tokens, chars, limit, ...(overflow ? { overflow } : {}) };
}

/**
 * Compacts the conversation so that the next call fits: `threshold` before a call whose prompt passes the limit,
 * `context_overflow` after a provider refused one (harder: less is kept). When nothing can be summarised (the newest
 * input alone does not fit), ends the turn with `session.error` `model.input_too_large` naming the sizes; the entry
 * names the input, which later turns are sent a note in place of, so the session stays usable.
 */
export async function makeRoom(
  pass: SessionPass,
  state: LogState,
  spec: ModelSpec,
  prompt: PromptPlan,
  refusal: { contextWindow?: number } | undefined,
  signal: AbortSignal,
): Promise<void> {
  const window = refusal?.contextWindow ?? prompt.resolved.contextWindow;
  const limit = refusal
    ? Math.min(prompt.tokens, window ?? prompt.tokens) * KEEP_SHARE_AFTER_REFUSAL
    : (prompt.limit ?? prompt.tokens) * KEEP_SHARE;
  const plan = planCompaction(pass.log, state.steps, limit);
  if (!plan) {
    const input = [...pass.log].reverse().find((e) => e.type === EV.userMessage);
    const size = window ? `the model's context window of ${window} tokens` : "the model's context window";
    const message =
      `The conversation's newest input does not fit ${size}: the prompt is about ${prompt.tokens} tokens ` +
      "even with everything before it summarised. Send a shorter message; the session stays usable.";
    const error = errorEvent(INPUT_TOO_LARGE, message);
    const entry = input ? { ...error, payload: { ...error.payload, inputSeq: input.seq } } : error;
    await pass.append([entry, idleEvent("error")], idleStatus("error"));
    return;
  }
  const reason = refusal ? "context_overflow" : "threshold";
  await compactConversation(pass, spec, plan, { reason, tokensBefore: prompt.tokens }, signal);
}
