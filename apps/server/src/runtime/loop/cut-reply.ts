import type { UsageAmount } from "../../budgets/index.js";
import {
  formatModelSpec,
  ModelCallAborted,
  type ModelPricing,
  type ModelSpec,
  usageAccounting,
} from "../../models/index.js";
import { costSettlement } from "./call-cost.js";
import { EV, textContent } from "./events.js";
import type { SessionPass } from "./pass.js";

/** What a reservation counted before the call, so that the cut call settles like an answered one. */
interface Reserved {
  tokens: number | null;
  costMicro: number | null;
}

/**
 * A streamed reply stopped by a `user.interrupt` keeps what it had written: an `agent.message` marked `cutShort` and
 * the call's `agent.usage` (what the provider reported before the stop — all of it, or the prompt's tokens, which
 * Anthropic reports as its stream starts — and the rest estimated at about 4 characters a token from the prompt sent
 * and the text written, marked `estimated`), committed before the loop closes the turn as interrupted. The
 * next turn's conversation includes the partial answer, and budgets count what the call used. Returns false (nothing
 * written) when the call was not stopped by an interrupt or had written nothing.
 */
export async function keepCutReply(
  pass: SessionPass,
  error: unknown,
  call: { spec: ModelSpec; pricing: ModelPricing | undefined; promptChars: number; contextSeq: number },
  reserved: Reserved,
): Promise<boolean> {
  if (!(error instanceof ModelCallAborted) || !error.partial || !pass.interrupts.signal.aborted) return false;
  const { text, usage: reported } = error.partial;
  // What the provider reported before the stop is kept (all of it, or the prompt's tokens); the rest is estimated.
  const usage = {
    ...reported,
    inputTokens: reported?.inputTokens ?? Math.ceil(call.promptChars / 4),
    outputTokens: reported?.outputTokens ?? Math.ceil(text.length / 4),
  };
  const estimated = reported?.outputTokens === undefined;
  const accounting = usageAccounting(call.pricing, usage);
  const counted = pass.modelUsage(usage.inputTokens + usage.outputTokens, reserved.tokens);
  counted.usages.push(...(costSettlement(accounting.costUsd, reserved.costMicro) as UsageAmount[]));
  await pass.commit(() => ({
    events: [
      { type: EV.agentMessage, payload: { content: textContent(text), cutShort: true } },
      {
        type: EV.usage,
        payload: {
          model: formatModelSpec(call.spec),
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          ...accounting,
          contextSeq: call.contextSeq,
          ...(estimated ? { estimated: true } : {}),
        },
      },
    ],
    usage: counted,
  }));
  return true;
}
