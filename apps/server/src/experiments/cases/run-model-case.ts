import type { ConversationTurn, ModelTask } from "@agent-platform/contract";
import { budgetExceededError, microUsd, recordUsages, reserveUsageNow, type UsageAmount } from "../../budgets/index.js";
import type { AppContext } from "../../context.js";
import {
  callModel,
  costOf,
  ModelCallError,
  modelCatalogueOf,
  type ProviderSettings,
  parseModelSpec,
} from "../../models/index.js";
import type { TaskOutcome } from "./case-outcome.js";

/**
 * A model task's case: the input as the only user message, with the task's system prompt and settings, no tools. The
 * call is reserved on the workspace's blocking budgets first; a budget without room is a case error.
 */
export async function runModelCase(
  ctx: AppContext,
  settings: ProviderSettings,
  workspaceId: string,
  task: ModelTask,
  input: string,
  conversation: readonly ConversationTurn[] | null,
  signal: AbortSignal,
): Promise<TaskOutcome> {
  const parsed = parseModelSpec(task.model);
  if (!parsed.ok) return failed(`task.model: ${parsed.error.message}`);
  const spec = {
    ...parsed.spec,
    ...(task.temperature !== undefined ? { temperature: task.temperature } : {}),
    ...(task.maxOutputTokens !== undefined ? { maxOutputTokens: task.maxOutputTokens } : {}),
  };
  // Reserved on the workspace's blocking budgets before the call (context at about 4 characters per token, plus the
  // output cap), settled with the real count after it.
  const earlier = (conversation ?? []).reduce((n, turn) => n + turn.text.length, 0);
  const estimate =
    Math.ceil(((task.system?.length ?? 0) + earlier + input.length) / 4) + (task.maxOutputTokens ?? 1_024);
  const reservation = await reserveUsageNow(ctx, {
    workspaceId,
    reserve: [
      { meter: "model_calls", amount: 1 },
      { meter: "tokens", amount: estimate },
    ],
    // Cost is counted after the call (not reserved): a reached cost budget refuses the case.
    check: ["cost_usd"],
  });
  if (reservation.exceeded) return failed(`budget exceeded: ${budgetExceededError(reservation.exceeded).message}`);
  const reserved = reservation.recorded ? estimate : 0;
  const settle = (usages: UsageAmount[]) => recordUsages(ctx.db.pool, { workspaceId, usages });
  try {
    const result = await callModel({
      spec,
      settings,
      system: task.system,
      messages: [
        ...(conversation ?? []).map((turn) => ({ role: turn.role, text: turn.text })),
        { role: "user", text: input },
      ],
      signal,
    });
    const tokens = result.usage.inputTokens + result.usage.outputTokens;
    const costUsd = costOf(modelCatalogueOf(ctx.config.env).resolve(spec).pricing, result.usage);
    await settle([
      { meter: "tokens", amount: tokens - reserved },
      { meter: "model_calls", amount: reservation.recorded ? 0 : 1 },
      { meter: "cost_usd", amount: microUsd(costUsd) },
    ]);
    return {
      output: result.text,
      error: null,
      usage: result.usage,
      costUsd,
      sessionId: null,
    };
  } catch (error) {
    if (reservation.recorded) {
      await settle([
        { meter: "tokens", amount: -reserved },
        { meter: "model_calls", amount: -1 },
      ]);
    }
    if (error instanceof ModelCallError) return failed(`model call failed: ${error.message}`);
    throw error;
  }
  function failed(message: string): TaskOutcome {
    ctx.logger.debug({ model: task.model, message }, "experiment case: model call failed");
    return { output: null, error: message, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0, sessionId: null };
  }
}
