import {
  learnedContextWindow,
  type ModelSpec,
  modelCatalogueOf,
  type ResolvedModel,
  rememberContextWindow,
} from "../../models/index.js";
import { compactConversation, newestToolResults, planCompaction } from "./compaction.js";
import {
  COMPACTION,
  contextSettingsOf,
  conversationView,
  estimateTokens,
  INPUT_TOO_LARGE,
  promptTokens,
  type ToolResultLimit,
  toolResultChars,
  toolResultsShare,
} from "./context-view.js";
import { EV, errorEvent, idleEvent } from "./events.js";
import type { LogState } from "./log-state.js";
import { idleStatus, type SessionPass } from "./pass.js";

/** Share of the limit the newest part of the conversation may keep when compacting (the rest is summarised). */
const KEEP_SHARE = 0.4;
/** After a provider's refusal, the kept part is this share of what was refused. */
const KEEP_SHARE_AFTER_REFUSAL = 0.2;
/** A prompt refused although estimated to fit: for the rest of the pass, the model's window is planned below it. */
const BELOW_REFUSED = 0.9;
/** Refusals in one pass after which the turn ends (a provider that refuses the prompt however it is cut). */
const MAX_REFUSALS = 6;

export interface PromptPlan {
  resolved: ResolvedModel;
  messages: ReturnType<typeof conversationView>;
  /** Estimated prompt tokens. */
  tokens: number;
  /** Characters of the prompt (system, messages, tool definitions as JSON). */
  chars: number;
  /** Characters of the system prompt and the tool definitions (JSON). */
  fixedChars: number;
  /** How much of the tool results the model is shown. */
  toolLimit: ToolResultLimit;
  /** The window planned with (declared, learned from a provider, or below a size refused in this pass). */
  window?: number;
  /** Prompt tokens past which the conversation is compacted first; undefined when the window is unknown. */
  limit?: number;
  /**
   * Past the limit: `compact` when part of the conversation can be summarised, `too_large` when nothing can and the
   * prompt does not fit the window; undefined when the call goes ahead.
   */
  overflow?: "compact" | "too_large";
}

/** What a pass learned of its models' windows from refusals: sizes known to be refused, and how many refusals. */
interface PassWindows {
  below: Map<string, number>;
  refusals: number;
}

const passWindows = new WeakMap<SessionPass, PassWindows>();

function windowsOf(pass: SessionPass): PassWindows {
  let windows = passWindows.get(pass);
  if (!windows) {
    windows = { below: new Map(), refusals: 0 };
    passWindows.set(pass, windows);
  }
  return windows;
}

const smallest = (...values: (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
};

/**
 * The window a model call is planned with: the smallest of the declared one (catalogue, agent's `model`), the one its
 * provider named in a refusal (remembered across processes), and in this pass, below a prompt size refused.
 */
async function windowOf(pass: SessionPass, resolved: ResolvedModel): Promise<number | undefined> {
  const learned = await learnedContextWindow(pass.ctx, resolved.name);
  return smallest(resolved.contextWindow, learned, passWindows.get(pass)?.below.get(resolved.name));
}

/**
 * The conversation of the next call and its size (in memory only, once the model's learned window is known to the
 * process: a session far from its window pays nothing).
 */
export async function planPrompt(
  pass: SessionPass,
  state: LogState,
  spec: ModelSpec,
  system: string | undefined,
  tools: unknown,
): Promise<PromptPlan> {
  const resolved = modelCatalogueOf(pass.ctx.config.env).resolve(spec);
  const fixedChars = (system?.length ?? 0) + JSON.stringify(tools).length;
  return planWithin(pass, state, spec, resolved, fixedChars, await windowOf(pass, resolved));
}

function planWithin(
  pass: SessionPass,
  state: LogState,
  spec: ModelSpec,
  resolved: ResolvedModel,
  fixedChars: number,
  window: number | undefined,
): PromptPlan {
  const settings = contextSettingsOf(pass.ctx.config.env);
  // With a known window, the tool results of a response together take at most about a quarter of it.
  const toolLimit: ToolResultLimit = {
    maxChars: settings.toolResultMaxChars,
    ...(window ? { stepChars: toolResultsShare(window) } : {}),
  };
  const messages = conversationView(pass.log, state.steps, toolLimit);
  const chars = fixedChars + JSON.stringify(messages).length;
  const tokens = promptTokens(pass.log, chars, toolResultChars(toolLimit));
  const plan: PromptPlan = { resolved, messages, tokens, chars, fixedChars, toolLimit };
  if (!window) return plan;
  const limit = Math.floor(Math.min(settings.threshold * window, window - (spec.maxOutputTokens ?? 0)));
  if (tokens <= limit) return { ...plan, window, limit };
  // Past the threshold with nothing left to summarise, a prompt that still fits the window is sent as it is.
  const overflow = planCompaction(pass.log, state.steps, limit * KEEP_SHARE, toolResultChars(toolLimit))
    ? "compact"
    : tokens + (spec.maxOutputTokens ?? 0) > window
      ? "too_large"
      : undefined;
  return { ...plan, window, limit, ...(overflow ? { overflow } : {}) };
}

/**
 * Makes room for the next call: `threshold` before a call whose prompt passes the limit, compacting the older part of
 * the conversation; after a provider refused one (`refusal`), the window it names is remembered for the model, and a
 * prompt refused although estimated to fit makes the pass plan below its size. The tool results are then cut to a
 * quarter of what is known; when that is not enough the conversation is compacted harder (less is kept). When nothing
 * can be summarised, the turn ends with `session.error` `model.input_too_large` naming the sizes — naming the user
 * message when it is the newest input (later turns are sent a note in its place, so the session stays usable), and
 * the tool results when they are (never blamed on the user).
 */
export async function makeRoom(
  pass: SessionPass,
  state: LogState,
  spec: ModelSpec,
  prompt: PromptPlan,
  refusal: { contextWindow?: number } | undefined,
  signal: AbortSignal,
): Promise<void> {
  let room = prompt;
  let keepTokens = (prompt.limit ?? prompt.tokens) * KEEP_SHARE;
  if (refusal) {
    const windows = windowsOf(pass);
    if (++windows.refusals > MAX_REFUSALS) {
      const message =
        `The model provider refused the prompt as too long ${MAX_REFUSALS} times in this turn, after its tool results ` +
        "were cut and the conversation compacted; the session stays usable.";
      await pass.append([errorEvent("model.context_overflow", message), idleEvent("error")], idleStatus("error"));
      return;
    }
    const name = prompt.resolved.name;
    if (refusal.contextWindow !== undefined) await rememberContextWindow(pass.ctx, name, refusal.contextWindow);
    const known = smallest(refusal.contextWindow, prompt.window);
    if (known === undefined || prompt.tokens <= known) {
      // Refused although estimated to fit (or nothing is known): the estimate fell short of the provider's count.
      const below = Math.floor(prompt.tokens * BELOW_REFUSED);
      windows.below.set(name, Math.min(below, windows.below.get(name) ?? below));
    }
    room = planWithin(pass, state, spec, prompt.resolved, prompt.fixedChars, await windowOf(pass, prompt.resolved));
    // Cut to a quarter of the window now known, the tool results may be all it took.
    if (!room.overflow) return;
    keepTokens = Math.min(prompt.tokens, room.window ?? prompt.tokens) * KEEP_SHARE_AFTER_REFUSAL;
  }
  const plan = planCompaction(pass.log, state.steps, keepTokens, toolResultChars(room.toolLimit));
  if (!plan) return endTooLarge(pass, state, room);
  const reason = refusal ? "context_overflow" : "threshold";
  // The size after: the conversation as the model will be sent it once the summary is in the log.
  const tokensAfter = (summary: string) => {
    const entry = {
      seq: Number.MAX_SAFE_INTEGER,
      id: "",
      type: COMPACTION,
      createdAt: "",
      summary,
      fromSeq: plan.fromSeq,
      toSeq: plan.toSeq,
    };
    const messages = conversationView([...pass.log, entry], state.steps, room.toolLimit);
    return estimateTokens(room.fixedChars + JSON.stringify(messages).length);
  };
  await compactConversation(pass, spec, plan, { reason, tokensBefore: room.tokens, tokensAfter }, signal);
}

/** Ends the turn: the newest input alone (with the system prompt and tool definitions) does not fit the window. */
async function endTooLarge(pass: SessionPass, state: LogState, room: PromptPlan): Promise<void> {
  const size = room.window ? `the model's context window of ${room.window} tokens` : "the model's context window";
  const toolResults = newestToolResults(pass.log, state.steps);
  if (toolResults) {
    const message =
      `The newest tool results (${toolResults.join(", ")}) do not fit ${size}, even cut to about a quarter of it ` +
      `together: the prompt is about ${room.tokens} tokens, of which the system prompt and tool definitions take ` +
      `about ${Math.ceil(room.fixedChars / 4)}. The session stays usable.`;
    await pass.append([errorEvent(INPUT_TOO_LARGE, message), idleEvent("error")], idleStatus("error"));
    return;
  }
  const input = [...pass.log].reverse().find((e) => e.type === EV.userMessage);
  const message =
    `The conversation's newest input does not fit ${size}: the prompt is about ${room.tokens} tokens ` +
    "even with everything before it summarised. Send a shorter message; the session stays usable.";
  const error = errorEvent(INPUT_TOO_LARGE, message);
  const entry = input ? { ...error, payload: { ...error.payload, inputSeq: input.seq } } : error;
  await pass.append([entry, idleEvent("error")], idleStatus("error"));
}
