import { type BudgetExceeded, exceededMessage, reserveUsageNow, type UsageAmount } from "../../budgets/index.js";
import { AppError } from "../../http/app-error.js";
import { inSpan, measure } from "../../lib/telemetry/instruments.js";
import {
  callModel,
  formatModelSpec,
  ModelCallError,
  type ModelSpec,
  modelCatalogueOf,
  usageAccounting,
} from "../../models/index.js";
import type { NewEvent } from "../../sessions/index.js";
import { costReservation, costSettlement, costToReserve } from "./call-cost.js";
import { CompactionRefused } from "./compaction.js";
import { makeRoom, type PromptPlan, planPrompt } from "./context-limit.js";
import { keepCutReply } from "./cut-reply.js";
import { EV, idleEvent, mcpServerUnavailableEvent, textContent } from "./events.js";
import { screenInput } from "./guard-input.js";
import { outputDecisionEvents, screenOutput, withGuardrailUsage } from "./guard-output.js";
import { liveReplyFor } from "./live-reply.js";
import type { LogState } from "./log-state.js";
import { loopMetrics } from "./metrics.js";
import { idleStatus, type SessionPass } from "./pass.js";
import { withToolResultImages } from "./tool-result-images.js";
import { toolUseEvent } from "./toolset.js";

/** What a step tells the loop: the session waits or has nothing to do (`settled`), or look at the log again. */
export type StepOutcome = "settled" | "again";

/** A step's outcome with what it reported, which the loop records on the pass (MCP failures are reported once). */
export interface StepDecision {
  outcome: StepOutcome;
  reportedMcpFailures: boolean;
}

/** A model response appended: whether its commit ended the turn, and whether it reported the MCP failures. */
interface Responded {
  ended: boolean;
  reportedMcpFailures: boolean;
}

/**
 * The `call_model` step: opens the turn (committed while the budgets are checked and the model is called), enforces
 * the cap on model calls per turn and the blocking budgets, calls the model and appends its response.
 */
export async function callModelStep(
  pass: SessionPass,
  state: LogState,
  stepSignal: AbortSignal,
): Promise<StepOutcome | StepDecision> {
  const running = pass.openTurn(state);
  running.catch(() => {});
  const cap = pass.settings.maxModelCalls ?? pass.deps.maxModelCalls;
  if (state.modelCallsInTurn >= cap) {
    await running;
    await pass.append([idleEvent("max_turns")], idleStatus("max_turns"));
    return "settled";
  }
  const fail = async (code: string, message: string): Promise<StepOutcome> => {
    await running;
    await pass.failTurn(code, message);
    return "settled";
  };
  let config: Awaited<ReturnType<SessionPass["loadAgent"]>>;
  try {
    config = await pass.loadAgent();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return fail(error.code, error.message);
  }
  const spec = pass.modelSpec(config);
  if ("code" in spec) return fail(spec.code, spec.message);
  await pass.recording;
  const screened = await screenInput(pass, state, config, running, stepSignal);
  if (screened !== "go") return screened;
  try {
    const outcome = await modelCall(pass, state, spec, stepSignal, running);
    if ("ended" in outcome) {
      return { outcome: outcome.ended ? "settled" : "again", reportedMcpFailures: outcome.reportedMcpFailures };
    }
    if ("prompt" in outcome) {
      // The conversation is compacted first (or the turn ends when its newest input alone cannot fit).
      await running;
      await makeRoom(pass, state, spec, outcome.prompt, outcome.refusal, stepSignal);
      return "again";
    }
    return fail("budget.exceeded", exceededMessage(outcome));
  } catch (error) {
    if (error instanceof CompactionRefused) return fail("budget.exceeded", error.message);
    if (!(error instanceof ModelCallError)) throw error;
    return fail(error.code, error.message);
  }
}

/** The prompt does not fit (estimated past the limit, or refused by the provider): compact before calling. */
interface NeedsRoom {
  prompt: PromptPlan;
  refusal: { contextWindow?: number } | undefined;
}

/** The model as the tool-result images need it: its provider, and its capabilities (the catalogue's, the agent's). */
const imageTaking = (spec: ModelSpec, prompt: PromptPlan) => ({
  provider: spec.provider,
  ...(prompt.resolved.capabilities ? { capabilities: prompt.resolved.capabilities } : {}),
});

/** Output tokens a call is assumed to use when its model sets no `maxOutputTokens` (for budget reservations). */
const RESERVED_OUTPUT_TOKENS = 1_024;

/**
 * Tokens reserved on a blocking `tokens` budget before a call: its prompt (about 4 characters per token) plus its
 * output cap. Settled with the real count once the call answers.
 */
function estimateTokens(promptChars: number, spec: ModelSpec): number {
  return Math.ceil(promptChars / 4) + (spec.maxOutputTokens ?? RESERVED_OUTPUT_TOKENS);
}

/**
 * Reserves the call on the blocking budgets (`model_calls` and the estimated `tokens`: a budget without room refuses
 * it before anything is sent), calls the model, then appends its response and usage in one statement. Says whether
 * that statement also ended the turn (a final answer with nothing new in the log meanwhile), or which budget refused.
 */
async function modelCall(
  pass: SessionPass,
  state: LogState,
  spec: ModelSpec,
  stepSignal: AbortSignal,
  running: Promise<void>,
): Promise<Responded | BudgetExceeded | NeedsRoom> {
  const config = await pass.loadAgent();
  const tools = await pass.tools(stepSignal);
  const prompt = await planPrompt(pass, state, spec, config.system, tools.definitions);
  if (prompt.overflow) return { prompt, refusal: undefined };
  const messages = prompt.messages;
  const estimate = estimateTokens(prompt.chars, spec);
  const pricing = modelCatalogueOf(pass.ctx.config.env).resolve(spec).pricing;
  const cost = costReservation(
    costToReserve(pricing, Math.ceil(prompt.chars / 4), estimate - Math.ceil(prompt.chars / 4)),
  );
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
  if (reservation.exceeded) return reservation.exceeded;
  const reserved = reservation.recorded ? estimate : null;
  // The model call overlaps the commit of `session.status_running`; the response is appended after it. Both are
  // waited for, whatever happens, so that nothing of this step is still being written when the loop moves on.
  const cancel = new AbortController();
  running.catch(() => cancel.abort());
  const started = performance.now();
  const model = formatModelSpec(spec);
  const live = liveReplyFor(pass, state);
  const streamed = live ? { afterSeq: state.lastSeq, call: state.modelCallsInTurn + 1 } : undefined;
  const call = inSpan("model.call", { "gen_ai.request.model": model, "session.id": pass.info.id }, async (span) => {
    const result = await callModel({
      spec,
      settings: pass.deps.providerSettings,
      promptCacheKey: pass.info.id,
      ...(config.system ? { system: config.system } : {}),
      messages: await withToolResultImages(pass.pool, pass.info.id, imageTaking(spec, prompt), messages),
      tools: tools.definitions,
      signal: AbortSignal.any([stepSignal, cancel.signal]),
      ...live?.options,
    }).finally(() => live?.close());
    span.setAttributes({
      "gen_ai.usage.input_tokens": result.usage.inputTokens,
      "gen_ai.usage.output_tokens": result.usage.outputTokens,
      "gen_ai.response.finish_reasons": [result.finishReason],
    });
    const tokens = measure().modelTokens;
    tokens.add(result.usage.inputTokens, { "gen_ai.request.model": model, "gen_ai.token.type": "input" });
    tokens.add(result.usage.outputTokens, { "gen_ai.request.model": model, "gen_ai.token.type": "output" });
    return result;
  }).finally(() => {
    const ms = performance.now() - started;
    loopMetrics.modelCalls++;
    loopMetrics.modelCallMs += ms;
    measure().modelDuration.record(ms / 1000, { "gen_ai.request.model": model });
  });
  const [called, opened] = await Promise.allSettled([call, running]);
  if (called.status === "rejected" || opened.status === "rejected") {
    // A reply an interrupt stopped as it streamed is kept, with its usage; the loop then closes the turn.
    const costMicro = reserved !== null ? (cost.reserve[0]?.amount ?? 0) : null;
    const cut = { spec, pricing, promptChars: prompt.chars, contextSeq: state.lastSeq };
    if (opened.status === "fulfilled" && called.status === "rejected") {
      if (await keepCutReply(pass, called.reason, cut, { tokens: reserved, costMicro })) throw called.reason;
    }
    // Nothing was used: the reservation is given back.
    if (reserved !== null) pass.releaseModelReservation(toReserve);
    const error = called.status === "rejected" ? called.reason : undefined;
    if (opened.status === "fulfilled" && error instanceof ModelCallError && error.code === "model.context_overflow") {
      return {
        prompt,
        refusal: error.contextWindow !== undefined ? { contextWindow: error.contextWindow } : {},
      };
    }
    throw opened.status === "rejected" ? opened.reason : (called as PromiseRejectedResult).reason;
  }
  const result = called.value;
  // What the call had in its context (`openTurn` counts its own entry when nothing came in between).
  const contextSeq = state.lastSeq;
  const accounting = usageAccounting(pricing, result.usage);
  const usageEntry: NewEvent = {
    type: EV.usage,
    payload: {
      model: formatModelSpec(spec),
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      ...accounting,
      contextSeq,
    },
  };
  const callUsage = pass.modelUsage(result.usage.inputTokens + result.usage.outputTokens, reserved);
  callUsage.usages.push(
    ...costSettlement(accounting.costUsd, reserved !== null ? (cost.reserve[0]?.amount ?? 0) : null),
  );
  // Output guardrails see the whole reply before any of it is written; a blocked reply is not written at all.
  const guarded = await screenOutput(pass, config, result.text, streamed, stepSignal).catch(async (error) => {
    // Stopped while the reply was checked (an interrupt): the reply is not written, the call's usage is.
    await pass.append([usageEntry], undefined, callUsage).catch(() => {});
    throw error;
  });
  const stopped = guarded?.stop;
  const text = guarded ? guarded.text : result.text;
  const events: NewEvent[] = [];
  const reportedMcpFailures = !pass.mcpFailuresReported;
  if (reportedMcpFailures) events.push(...tools.mcpFailures.map(mcpServerUnavailableEvent));
  let messageAt: number | undefined;
  if (!stopped) {
    for (const part of result.reasoning ?? []) events.push({ type: EV.thinking, payload: { ...part } });
    if (text.length > 0) {
      messageAt = events.length;
      events.push({ type: EV.agentMessage, payload: { content: textContent(text) } });
    }
    for (const toolCall of result.toolCalls) events.push(toolUseEvent(tools, toolCall.name, toolCall.input));
  }
  events.push(usageEntry);
  // A final answer with nothing new in the log since the call started ends the turn in the same transaction (unless
  // an outcome grades it first).
  let ended = false;
  const final = stopped !== undefined || (result.toolCalls.length === 0 && !pass.settings.outcome);
  const usage = withGuardrailUsage(callUsage, guarded?.usage);
  await pass.commit(
    (head) => {
      if (stopped) {
        ended = true;
        return { events: [...events, ...stopped.events], status: idleStatus(stopped.stopReason), usage };
      }
      const decided = guarded
        ? outputDecisionEvents(guarded, messageAt !== undefined ? head + 1 + messageAt : undefined)
        : [];
      ended = final && head === contextSeq;
      return ended
        ? { events: [...events, ...decided, idleEvent("end_turn")], status: idleStatus("end_turn"), usage }
        : { events: [...events, ...decided], usage };
    },
    { mayEndTurn: final },
  );
  return { ended, reportedMcpFailures };
}
