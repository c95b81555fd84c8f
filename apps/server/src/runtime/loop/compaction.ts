import { reserveUsageNow, type UsageAmount } from "../../budgets/index.js";
import { callModel, type ModelSpec, modelCatalogueOf, parseModelSpec, usageAccounting } from "../../models/index.js";
import type { StoredEvent } from "../../sessions/index.js";
import { costReservation, costSettlement, costToReserve } from "./call-cost.js";
import { COMPACTION, contextSettingsOf, latestCompaction } from "./context-view.js";
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
  complete: boolean;
}

function clip(text: string, max = ITEM_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)} […${text.length - max} characters not shown]`;
}

function itemsAfter(log: readonly StoredEvent[], steps: readonly ModelStep[], after: number): Item[] {
  const items: Item[] = [];
  const guarded = inputDecisions(log);
  for (const event of log) {
    if (event.type === EV.userMessage && event.seq > after) {
      // What input guardrails let the model see (a blocked message is summarised as withheld).
      const text = userTextForModel(event, guarded) ?? "[withheld by a guardrail]";
      items.push({ pos: event.seq, key: event.seq, text: `User: ${clip(text)}`, complete: true });
    } else if (event.type === EV.outcomeEvaluation && event.revise === true && event.seq > after) {
      // An outcome's feedback is an input the model was sent, like a user message.
      items.push({ pos: event.seq, key: event.seq, text: `User: ${clip(String(event.feedback))}`, complete: true });
    }
  }
  for (const step of steps) {
    if (step.firstSeq <= after) continue;
    const lines = step.text ? [`Assistant: ${clip(step.text)}`] : [];
    for (const use of step.toolUses) {
      lines.push(`Assistant called ${use.name} with ${clip(JSON.stringify(use.input ?? {}), 1_000)}`);
      if (use.result) lines.push(`${use.result.isError ? "Tool error" : "Tool result"}: ${clip(use.result.text)}`);
    }
    const complete = step.toolUses.every((u) => u.result);
    items.push({ pos: step.contextSeq + 0.5, key: step.firstSeq, text: lines.join("\n"), complete });
  }
  return items.sort((a, b) => a.pos - b.pos);
}

export interface CompactionPlan {
  items: number;
  fromSeq: number;
  toSeq: number;
  transcript: string;
  /** Estimated tokens of the items kept as they are. */
  keptTokens: number;
}

/**
 * Splits the conversation after the newest compaction: the newest items worth about `keepTokens` stay as they are, the
 * rest is summarised. A cut is valid when every summarised item comes before every kept one in the log too (so a seq
 * names it) and no summarised step waits for a tool result. Undefined when nothing can be summarised.
 */
export function planCompaction(
  log: readonly StoredEvent[],
  steps: readonly ModelStep[],
  keepTokens: number,
): CompactionPlan | undefined {
  const previous = latestCompaction(log);
  const items = itemsAfter(log, steps, previous?.toSeq ?? 0);
  let kept = 0;
  let cut = items.length - 1; // the newest item always stays
  while (cut > 0 && kept + items[cut]!.text.length / 4 <= keepTokens) {
    kept += items[cut]!.text.length / 4;
    cut--;
  }
  // `cut` is the last summarised index candidate + 1 after the loop: items[0..cut) are summarised.
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
        keptTokens: Math.ceil(items.slice(cut).reduce((sum, i) => sum + i.text.length, 0) / 4),
      };
    }
  }
  return undefined;
}

/**
 * Summarises the planned part of the conversation with a model call (reserved on the budgets, settled in the commit)
 * and appends the `session.compaction` entry in one fenced commit. A pass that dies before the commit leaves nothing:
 * the next one compacts again; after it, every pass rebuilds the same conversation from the entry.
 */
export async function compactConversation(
  pass: SessionPass,
  agentSpec: ModelSpec,
  plan: CompactionPlan,
  detail: { reason: "threshold" | "context_overflow"; tokensBefore: number },
  signal: AbortSignal,
): Promise<void> {
  const summaryModel = contextSettingsOf(pass.ctx.config.env).model;
  const configured = summaryModel ? parseModelSpec(summaryModel) : undefined;
  const spec = configured?.ok ? configured.spec : agentSpec;
  const resolved = modelCatalogueOf(pass.ctx.config.env).resolve(spec);
  const output = Math.min(SUMMARY_OUTPUT_TOKENS, resolved.maxOutputTokens ?? SUMMARY_OUTPUT_TOKENS);
  // The text to summarise fits the summarising model's window: its newest part is kept when it does not.
  const room = resolved.contextWindow ? (resolved.contextWindow - output - 500) * 3 : Number.POSITIVE_INFINITY;
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
      tokensAfter: plan.keptTokens + Math.ceil(result.text.length / 4),
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
}

/** A blocking budget has no room for the summarising call. */
export class CompactionRefused extends Error {
  constructor(readonly meter: string) {
    super(`The ${meter} budget has no room for compacting the conversation`);
  }
}
