import { reserveUsageNow, type UsageAmount } from "../../budgets/index.js";
import {
  callModel,
  learnedContextWindow,
  ModelCallError,
  type ModelSpec,
  modelCatalogueOf,
  parseModelSpec,
  rememberContextWindow,
  usageAccounting,
} from "../../models/index.js";
import type { StoredEvent } from "../../sessions/index.js";
import { costReservation, costSettlement, costToReserve } from "./call-cost.js";
import { COMPACTION, contextSettingsOf, estimateTokens, latestCompaction } from "./context-view.js";
import { EV } from "./events.js";
import { inputDecisions, userTextForModel } from "./guarded-view.js";
import type { ModelStep } from "./log-state.js";
import type { SessionPass } from "./pass.js";

const SUMMARY_SYSTEM =
  "You compact the earlier part of an agent's conversation so that the agent can go on without it. Write a summary " +
  "that keeps everything the agent needs: the user's task and constraints, decisions made and why, facts and results " +
  "learned (names, numbers, paths, ids, URLs), what each tool use found, and work still open (unanswered questions, " +
  "tool work in progress, next steps). Be complete on facts and brief on wording. Write only the summary.";

/** Characters of one tool result or message copied into the text to summarise. */
const ITEM_CHARS = 4_000;
const SUMMARY_OUTPUT_TOKENS = 2_048;

interface Item {
  /** Its position in the conversation (user message: its seq; model step: after the newest entry it saw). */
  pos: number;
  /** Its first entry's seq: a compaction's `toSeq` splits items on it. */
  key: number;
  text: string;
  /** Characters it takes in the prompt (its tool results as cut there), which decide what a compaction keeps. */
  chars: number;
  complete: boolean;
  /** The names of the tools whose results it carries (a model step's). */
  toolResults?: string[];
}

function clip(text: string, max = ITEM_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)} […${text.length - max} characters not shown]`;
}

/**
 * The user messages (and outcome feedback) and model steps after `after`, in conversation order. `toolChars` is what
 * the model is shown of one tool result (`chars` counts that much of each).
 */
function itemsAfter(
  log: readonly StoredEvent[],
  steps: readonly ModelStep[],
  after: number,
  toolChars = Number.POSITIVE_INFINITY,
): Item[] {
  const items: Item[] = [];
  const guarded = inputDecisions(log);
  const input = (seq: number, text: string) =>
    items.push({ pos: seq, key: seq, text: `User: ${clip(text)}`, chars: text.length, complete: true });
  for (const event of log) {
    // What input guardrails let the model see (a blocked message is summarised as withheld).
    if (event.type === EV.userMessage && event.seq > after)
      input(event.seq, userTextForModel(event, guarded) ?? "[withheld by a guardrail]");
    // An outcome's feedback is an input the model was sent, like a user message.
    else if (event.type === EV.outcomeEvaluation && event.revise === true && event.seq > after) {
      input(event.seq, String(event.feedback));
    }
  }
  for (const step of steps) {
    if (step.firstSeq <= after) continue;
    const lines = step.text ? [`Assistant: ${clip(step.text)}`] : [];
    let chars = step.text.length;
    for (const use of step.toolUses) {
      const input = JSON.stringify(use.input ?? {});
      lines.push(`Assistant called ${use.name} with ${clip(input, 1_000)}`);
      chars += input.length + Math.min(use.result?.text.length ?? 0, toolChars);
      if (use.result) lines.push(`${use.result.isError ? "Tool error" : "Tool result"}: ${clip(use.result.text)}`);
    }
    const complete = step.toolUses.every((u) => u.result);
    const toolResults = step.toolUses.filter((u) => u.result).map((u) => u.name);
    items.push({
      pos: step.contextSeq + 0.5,
      key: step.firstSeq,
      text: lines.join("\n"),
      chars,
      complete,
      ...(toolResults.length > 0 ? { toolResults } : {}),
    });
  }
  return items.sort((a, b) => a.pos - b.pos);
}

/**
 * When the newest input of the conversation after the newest compaction (what any compaction keeps whole) is the tool
 * results of a model response, the names of those tools; undefined when it is a user message (or an outcome's
 * feedback). Tool results are never the user's message.
 */
export function newestToolResults(log: readonly StoredEvent[], steps: readonly ModelStep[]): string[] | undefined {
  return itemsAfter(log, steps, latestCompaction(log)?.toSeq ?? 0).at(-1)?.toolResults;
}

export interface CompactionPlan {
  items: number;
  fromSeq: number;
  toSeq: number;
  transcript: string;
}

/**
 * Splits the conversation after the newest compaction: the newest items worth about `keepTokens` in the prompt (their
 * tool results cut to `toolChars` each) stay as they are, the rest is summarised. A cut is valid when every summarised
 * item comes before every kept one in the log too (so a seq names it) and no summarised step waits for a tool result.
 * Undefined when nothing can be summarised.
 */
export function planCompaction(
  log: readonly StoredEvent[],
  steps: readonly ModelStep[],
  keepTokens: number,
  toolChars: number,
): CompactionPlan | undefined {
  const previous = latestCompaction(log);
  const items = itemsAfter(log, steps, previous?.toSeq ?? 0, toolChars);
  if (items.length === 0) return undefined;
  // items[cut..] are kept: the newest always, and the ones before it while they fit `keepTokens` with it.
  let cut = items.length - 1;
  let kept = estimateTokens(items[cut]!.chars);
  while (cut > 0 && kept + estimateTokens(items[cut - 1]!.chars) <= keepTokens) {
    kept += estimateTokens(items[cut - 1]!.chars);
    cut--;
  }
  // items[0..cut) are summarised, unless the cut splits what must stay together: then fewer are.
  for (; cut > 0; cut--) {
    const summarised = items.slice(0, cut);
    const toSeq = Math.max(...summarised.map((i) => i.key));
    if (summarised.every((i) => i.complete) && items.slice(cut).every((i) => i.key > toSeq)) {
      const head = previous ? [`Summary of what came before:\n${previous.summary}`] : [];
      return {
        items: cut,
        fromSeq: previous?.fromSeq ?? 1,
        toSeq,
        transcript: [...head, ...summarised.map((i) => i.text)].join("\n\n"),
      };
    }
  }
  return undefined;
}

/** Characters of the text to summarise per token of the summarising model's window (code and JSON count more). */
const TRANSCRIPT_CHARS_PER_TOKEN = 2.5;

/**
 * Summarises the planned part of the conversation with a model call (reserved on the budgets, settled in the commit)
 * and appends the `session.compaction` entry in one fenced commit. A pass that dies before the commit leaves nothing:
 * the next one compacts again; after it, every pass rebuilds the same conversation from the entry. Resolves false,
 * without compacting, when the summarising call was refused as too long naming a window not known before: it is
 * remembered, and the next attempt fits the text to it. Refused again, the call fails (`model.context_overflow`).
 */
export async function compactConversation(
  pass: SessionPass,
  agentSpec: ModelSpec,
  plan: CompactionPlan,
  detail: {
    reason: "threshold" | "context_overflow";
    tokensBefore: number;
    /** The estimated prompt once the summary is in. */
    tokensAfter: (summary: string) => number;
  },
  signal: AbortSignal,
): Promise<boolean> {
  const summaryModel = contextSettingsOf(pass.ctx.config.env).model;
  const configured = summaryModel ? parseModelSpec(summaryModel) : undefined;
  const spec = configured?.ok ? configured.spec : agentSpec;
  const resolved = modelCatalogueOf(pass.ctx.config.env).resolve(spec);
  const learned = await learnedContextWindow(pass.ctx, resolved.name);
  const window =
    resolved.contextWindow !== undefined && learned !== undefined
      ? Math.min(resolved.contextWindow, learned)
      : (resolved.contextWindow ?? learned);
  // The summary takes at most a quarter of a known window, so that the text to summarise has the rest.
  const output = Math.min(
    SUMMARY_OUTPUT_TOKENS,
    resolved.maxOutputTokens ?? SUMMARY_OUTPUT_TOKENS,
    window ? Math.floor(window / 4) : SUMMARY_OUTPUT_TOKENS,
  );
  // The text to summarise fits the summarising model's window: its newest part is kept when it does not.
  const room = window
    ? Math.max(1_000, Math.floor((window - output - 500) * TRANSCRIPT_CHARS_PER_TOKEN))
    : Number.POSITIVE_INFINITY;
  const transcript = plan.transcript.length > room ? plan.transcript.slice(-room) : plan.transcript;
  const estimate = Math.ceil((SUMMARY_SYSTEM.length + transcript.length) / 4) + output;
  const cost = costReservation(costToReserve(resolved.pricing, estimate - output, output));
  const toReserve: UsageAmount[] = [
    { meter: "model_calls", amount: 1 },
    { meter: "tokens", amount: estimate },
    ...cost.reserve,
  ];
  const reservation = await reserveUsageNow(pass.ctx, {
    workspaceId: pass.info.workspaceId,
    agentId: pass.info.agentId,
    reserve: toReserve,
    check: cost.check,
  });
  if (reservation.exceeded) throw new CompactionRefused(reservation.exceeded.meter);
  const reserved = reservation.recorded ? estimate : null;
  let result: Awaited<ReturnType<typeof callModel>>;
  try {
    result = await callModel({
      spec: { ...spec, maxOutputTokens: output },
      settings: pass.deps.providerSettings,
      system: SUMMARY_SYSTEM,
      messages: [{ role: "user", text: `Summarise this conversation:\n\n${transcript}` }],
      signal,
    });
  } catch (error) {
    if (reserved !== null) pass.releaseModelReservation(toReserve);
    const named = error instanceof ModelCallError && error.code === "model.context_overflow" && error.contextWindow;
    if (named && named !== window) {
      await rememberContextWindow(pass.ctx, resolved.name, named);
      return false;
    }
    throw error;
  }
  const accounting = usageAccounting(resolved.pricing, result.usage);
  const usage = pass.modelUsage(result.usage.inputTokens + result.usage.outputTokens, reserved);
  usage.usages.push(...costSettlement(accounting.costUsd, reserved !== null ? (cost.reserve[0]?.amount ?? 0) : null));
  const event = {
    type: COMPACTION,
    payload: {
      summary: result.text,
      fromSeq: plan.fromSeq,
      toSeq: plan.toSeq,
      tokensBefore: detail.tokensBefore,
      tokensAfter: detail.tokensAfter(result.text),
      reason: detail.reason,
      usage: {
        model: resolved.name,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        ...accounting,
      },
    },
  };
  await pass.commit(() => ({ events: [event], usage }));
  return true;
}

/** A blocking budget has no room for the summarising call. */
export class CompactionRefused extends Error {
  constructor(readonly meter: string) {
    super(`The ${meter} budget has no room for compacting the conversation`);
  }
}
