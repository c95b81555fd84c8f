import type { ModelRef } from "@agent-platform/contract";
import { type BudgetExceeded, microUsd, reserveUsageNow, type UsageAmount } from "../../budgets/index.js";
import {
  callModel,
  costOf,
  formatModelSpec,
  ModelCallError,
  modelCatalogueOf,
  parseModelSpec,
} from "../../models/index.js";
import type { Judge } from "../../scoring/score-output.js";
import { ScoringFailed } from "../../scoring/score-output.js";
import type { CommittedUsage } from "../../sessions/index.js";
import type { SessionPass } from "./pass.js";

/** Output tokens reserved for a judge call (its reply is a score and a short reason). */
const JUDGE_OUTPUT_TOKENS = 1_024;

/** A judge call was refused by a blocking budget before anything was sent. */
export class GradingRefused extends Error {
  override readonly name = "GradingRefused";
  constructor(readonly exceeded: BudgetExceeded) {
    super(`budget ${exceeded.meter} exceeded`);
  }
}

/**
 * The `llm_judge` calls of one grading. Each is reserved on the blocking budgets like a loop model call (one model call
 * and its estimated tokens; refused with `GradingRefused`), and counted: `settlement()` is the usage the grading's
 * commit records (the real tokens and calls minus what the reservations already counted, so a failed call's
 * reservation is given back there, and the calls' cost in dollars). The judge model is the scorer's `model`, else `EXPERIMENT_JUDGE_MODEL`, else the
 * session's model.
 */
export function outcomeJudge(pass: SessionPass, sessionModel: ModelRef, signal: AbortSignal) {
  const used = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const reserved = { calls: 0, tokens: 0 };
  let model: string | null = null;
  let cost: number | null = 0;
  const judge: Judge = async (request) => {
    const ref = request.model ?? (pass.ctx.config.env.EXPERIMENT_JUDGE_MODEL?.trim() || sessionModel);
    const parsed = parseModelSpec(ref);
    if (!parsed.ok) throw new ScoringFailed(`llm_judge: ${parsed.error.message}`);
    const spec = { ...parsed.spec, temperature: 0 };
    const estimate = Math.ceil((request.system.length + request.message.length) / 4) + JUDGE_OUTPUT_TOKENS;
    const reservation = await reserveUsageNow(pass.ctx, {
      workspaceId: pass.info.workspaceId,
      agentId: pass.info.agentId,
      reserve: [
        { meter: "model_calls", amount: 1 },
        { meter: "tokens", amount: estimate },
      ],
      // Cost is counted after the call, in the grading's commit (not reserved): a reached cost budget refuses it.
      check: ["cost_usd"],
    });
    if (reservation.exceeded) throw new GradingRefused(reservation.exceeded);
    if (reservation.recorded) {
      reserved.calls++;
      reserved.tokens += estimate;
    }
    try {
      const result = await callModel({
        spec,
        settings: pass.deps.providerSettings,
        system: request.system,
        messages: [{ role: "user", text: request.message }],
        signal,
      });
      used.calls++;
      used.inputTokens += result.usage.inputTokens;
      used.outputTokens += result.usage.outputTokens;
      model = formatModelSpec(spec);
      const callCost = costOf(modelCatalogueOf(pass.ctx.config.env).resolve(spec).pricing, result.usage);
      cost = cost === null || callCost === null ? null : cost + callCost;
      return { text: result.text };
    } catch (error) {
      if (error instanceof ModelCallError)
        throw new ScoringFailed(`llm_judge: the judge model failed: ${error.message}`);
      throw error;
    }
  };
  return {
    judge,
    usage: () => ({ model, modelCalls: used.calls, inputTokens: used.inputTokens, outputTokens: used.outputTokens }),
    costUsd: () => cost,
    /** The usage the grading's commit counts (undefined when there is nothing to count). */
    settlement(): CommittedUsage | undefined {
      const usages: UsageAmount[] = [
        { meter: "tokens", amount: used.inputTokens + used.outputTokens - reserved.tokens },
        { meter: "model_calls", amount: used.calls - reserved.calls },
        { meter: "cost_usd", amount: cost === null ? 0 : microUsd(cost) },
      ].filter((u) => u.amount !== 0) as UsageAmount[];
      if (usages.length === 0) return undefined;
      return { workspaceId: pass.info.workspaceId, agentId: pass.info.agentId, usages };
    },
  };
}
