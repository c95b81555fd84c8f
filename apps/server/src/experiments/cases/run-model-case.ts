import type { ModelTask } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import {
  callModel,
  formatModelSpec,
  ModelCallError,
  type ProviderSettings,
  parseModelSpec,
} from "../../models/index.js";
import { estimateCostUsd } from "../pricing.js";
import type { TaskOutcome } from "./case-outcome.js";

/** A model task's case: the input as the only user message, with the task's system prompt and settings, no tools. */
export async function runModelCase(
  ctx: AppContext,
  settings: ProviderSettings,
  task: ModelTask,
  input: string,
  signal: AbortSignal,
): Promise<TaskOutcome> {
  const parsed = parseModelSpec(task.model);
  if (!parsed.ok) return failed(`task.model: ${parsed.error.message}`);
  const spec = {
    ...parsed.spec,
    ...(task.temperature !== undefined ? { temperature: task.temperature } : {}),
    ...(task.maxOutputTokens !== undefined ? { maxOutputTokens: task.maxOutputTokens } : {}),
  };
  try {
    const result = await callModel({
      spec,
      settings,
      system: task.system,
      messages: [{ role: "user", text: input }],
      signal,
    });
    return {
      output: result.text,
      error: null,
      usage: result.usage,
      costUsd: estimateCostUsd(formatModelSpec(spec), result.usage),
      sessionId: null,
    };
  } catch (error) {
    if (error instanceof ModelCallError) return failed(`model call failed: ${error.message}`);
    throw error;
  }
  function failed(message: string): TaskOutcome {
    ctx.logger.debug({ model: task.model, message }, "experiment case: model call failed");
    return { output: null, error: message, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0, sessionId: null };
  }
}
