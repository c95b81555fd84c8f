import type { ExperimentTask, ModelRef } from "@agent-platform/contract";
import { loadAgentVersion } from "../agents/index.js";
import type { AppContext } from "../context.js";
import {
  callModel,
  costOf,
  ModelCallError,
  modelCatalogueOf,
  parseModelSpec,
  providerSettingsOf,
} from "../models/index.js";
import { type Judge, ScoringFailed } from "../scoring/score-output.js";
import { defaultJudgeModel } from "./validate-create.js";

export interface CountingJudge extends Judge {
  readonly usage: { inputTokens: number; outputTokens: number };
  readonly calls: number;
  /** Estimated cost of the judge's calls so far; null when a judge model's price is unknown. */
  costUsd(): number | null;
}

/**
 * The `llm_judge` model calls of one case. The judge model is the scorer's `model`, else `EXPERIMENT_JUDGE_MODEL`, else
 * the task's model (a model task's `model`, an agent task's agent version's model). A judge call that fails is a
 * scoring failure (the case is an error), never a guessed score. Usage and cost are counted for the case.
 */
export function createJudge(
  ctx: AppContext,
  projectId: string,
  task: ExperimentTask,
  signal: AbortSignal,
): CountingJudge {
  const settings = providerSettingsOf(ctx.config.env);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let calls = 0;
  let cost: number | null = 0;
  const judge = async (request: { model: string | undefined; system: string; message: string }) => {
    const model: ModelRef = request.model ?? defaultJudgeModel(ctx) ?? (await taskModel(ctx, projectId, task));
    const parsed = parseModelSpec(model);
    if (!parsed.ok) throw new ScoringFailed(`llm_judge: ${parsed.error.message}`);
    try {
      calls++;
      const result = await callModel({
        spec: { ...parsed.spec, temperature: 0 },
        settings,
        system: request.system,
        messages: [{ role: "user", text: request.message }],
        signal,
      });
      usage.inputTokens += result.usage.inputTokens;
      usage.outputTokens += result.usage.outputTokens;
      const callCost = costOf(modelCatalogueOf(ctx.config.env).resolve(parsed.spec).pricing, result.usage);
      cost = cost === null || callCost === null ? null : cost + callCost;
      return { text: result.text };
    } catch (error) {
      if (error instanceof ModelCallError)
        throw new ScoringFailed(`llm_judge: the judge model failed: ${error.message}`);
      throw error;
    }
  };
  return Object.assign(judge, {
    usage,
    get calls() {
      return calls;
    },
    costUsd: () => cost,
  });
}

async function taskModel(ctx: AppContext, projectId: string, task: ExperimentTask): Promise<ModelRef> {
  if (task.type === "model") return task.model;
  const agent = await loadAgentVersion(ctx, projectId, task.agentId, task.agentVersion);
  return agent.config.model;
}
