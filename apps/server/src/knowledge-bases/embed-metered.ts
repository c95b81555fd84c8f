import {
  type BudgetExceeded,
  budgetExceededError,
  microUsd,
  recordUsages,
  reserveUsageNow,
  type UsageAmount,
} from "../budgets/index.js";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import {
  type EmbeddingSpec,
  type EmbedTextsResult,
  embeddingCostUsd,
  embedTexts,
  estimateEmbeddingTokens,
  ModelCallAborted,
  ModelCallError,
  providerSettingsOf,
} from "../models/index.js";

export class EmbeddingBudgetExceeded extends Error {
  constructor(readonly exceeded: BudgetExceeded) {
    super(budgetExceededError(exceeded).message);
  }
}

/**
 * Embeds texts as a metered model call: a provider's model is reserved on the workspace's (and the agent's) blocking
 * budgets first — `model_calls`, the estimated `tokens`, and `cost_usd` must not be reached — exactly like a chat
 * model call, then the real usage is recorded. The offline builtin model calls nobody and is not metered. Throws
 * `EmbeddingBudgetExceeded` when a budget refuses, `ModelCallError` / `ModelCallAborted` from the call.
 */
export async function embedMetered(
  ctx: AppContext,
  input: {
    workspaceId: string;
    agentId?: string | null;
    spec: EmbeddingSpec;
    texts: readonly string[];
    signal?: AbortSignal;
  },
): Promise<EmbedTextsResult> {
  const settings = providerSettingsOf(ctx.config.env);
  if (input.spec.provider === "builtin") return embedTexts({ spec: input.spec, settings, texts: input.texts });
  const estimate = input.texts.reduce((n, text) => n + estimateEmbeddingTokens(text), 0);
  const estimatedCost = microUsd(embeddingCostUsd(input.spec, estimate));
  const reserve: UsageAmount[] = [
    { meter: "model_calls", amount: 1 },
    { meter: "tokens", amount: estimate },
    ...(estimatedCost > 0 ? [{ meter: "cost_usd" as const, amount: estimatedCost }] : []),
  ];
  const owner = { workspaceId: input.workspaceId, agentId: input.agentId ?? null };
  const reservation = await reserveUsageNow(ctx, { ...owner, reserve, check: ["cost_usd"] });
  if (reservation.exceeded) throw new EmbeddingBudgetExceeded(reservation.exceeded);
  let result: EmbedTextsResult;
  try {
    result = await embedTexts({
      spec: input.spec,
      settings,
      texts: input.texts,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (error) {
    if (reservation.recorded) {
      await recordUsages(ctx.db.pool, { ...owner, usages: reserve.map((u) => ({ ...u, amount: -u.amount })) });
    }
    throw error;
  }
  const spent = microUsd(result.costUsd);
  const settle: UsageAmount[] = reservation.recorded
    ? [
        { meter: "tokens", amount: result.inputTokens - estimate },
        { meter: "cost_usd", amount: spent - estimatedCost },
      ]
    : [
        { meter: "model_calls", amount: 1 },
        { meter: "tokens", amount: result.inputTokens },
        { meter: "cost_usd", amount: spent },
      ];
  await recordUsages(ctx.db.pool, { ...owner, usages: settle });
  return result;
}

/** An embedding failure as the API's error: 403 `budget.exceeded`, or 502 `embedding.failed`. */
export function embeddingFailure(error: unknown): AppError | null {
  if (error instanceof EmbeddingBudgetExceeded) return budgetExceededError(error.exceeded);
  if (error instanceof ModelCallError)
    return new AppError("embedding.failed", `Embedding the query failed: ${error.message}`);
  if (error instanceof ModelCallAborted) return null;
  return null;
}
