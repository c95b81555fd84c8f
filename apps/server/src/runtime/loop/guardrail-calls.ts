import type { GuardrailStage, ModelRef } from "@agent-platform/contract";
import { exceededMessage, microUsd, reserveUsageNow, type UsageAmount } from "../../budgets/index.js";
import {
  GUARDRAIL_JUDGE_SYSTEM,
  type GuardrailDecision,
  guardrailJudgeMessage,
  isModelBacked,
  judgeVerdict,
  type ModelVerdict,
  moderationVerdict,
  type NamedGuardrail,
  recordDecisionMetric,
} from "../../guardrails/index.js";
import {
  callModel,
  costOf,
  DEFAULT_MODERATION_MODEL,
  formatModelSpec,
  ModelCallError,
  modelCatalogueOf,
  moderate,
  parseModelSpec,
} from "../../models/index.js";
import type { CommittedUsage } from "../../sessions/index.js";
import type { SessionPass } from "./pass.js";

/** A model-backed check could not decide (a budget refused its call, the provider failed, the judge's reply). */
export class GuardrailCheckFailed extends Error {
  override readonly name = "GuardrailCheckFailed";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const JUDGE_OUTPUT_TOKENS = 256;

/**
 * The model-backed checks (`moderation`, `llm_judge`) of one screening. Each call is reserved on the blocking budgets
 * like a loop model call (one model call, and a judge's estimated tokens; refused with `budget.exceeded`) and counted:
 * its decision carries its usage and cost (summed into the session's usage), and `settlement()` is what the commit
 * writing the decisions counts on the budgets' meters beyond the reservations.
 */
export class GuardrailModelCalls {
  private readonly used = { calls: 0, tokens: 0, micro: 0 };
  private readonly reserved = { calls: 0, tokens: 0 };

  constructor(
    private readonly pass: SessionPass,
    private readonly sessionModel: ModelRef,
    private readonly signal: AbortSignal,
  ) {}

  /** Runs one model-backed guardrail on a text; every run is a decision (it holds the call's usage). */
  async decide(
    named: NamedGuardrail,
    stage: GuardrailStage,
    text: string,
    target: { targetSeq?: number; toolUseId?: string },
  ): Promise<GuardrailDecision> {
    const { guardrail } = named;
    const run =
      guardrail.check.type === "moderation"
        ? await this.moderation(guardrail.check.model ?? DEFAULT_MODERATION_MODEL, text, guardrail.check)
        : guardrail.check.type === "llm_judge"
          ? await this.judge(guardrail.check, stage, text)
          : undefined;
    if (!run) throw new Error(`${named.name} is not a model-backed guardrail`);
    if (run.verdict.triggered) recordDecisionMetric(stage, guardrail.check.type, guardrail.action);
    return {
      guardrail: named.name,
      stage,
      check: guardrail.check.type,
      action: guardrail.action,
      triggered: run.verdict.triggered,
      ...target,
      spans: [],
      score: run.verdict.score,
      ...(run.verdict.categories ? { categories: run.verdict.categories } : {}),
      ...(run.verdict.reason !== undefined ? { reason: run.verdict.reason } : {}),
      usage: { model: run.model, modelCalls: 1, inputTokens: run.inputTokens, outputTokens: run.outputTokens },
      costUsd: run.costUsd,
    };
  }

  private async moderation(model: string, text: string, check: Parameters<typeof moderationVerdict>[0]): Promise<Run> {
    await this.reserve(0);
    try {
      const result = await moderate(this.pass.deps.providerSettings, model, text, this.signal);
      this.used.calls++;
      return {
        verdict: moderationVerdict(check, result),
        model: `openai/${result.model || model}`,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
      };
    } catch (error) {
      throw failure(error, "moderation");
    }
  }

  private async judge(
    check: Extract<NamedGuardrail["guardrail"]["check"], { type: "llm_judge" }>,
    stage: GuardrailStage,
    text: string,
  ): Promise<Run> {
    const ref = check.model ?? (this.pass.ctx.config.env.GUARDRAIL_JUDGE_MODEL?.trim() || this.sessionModel);
    const parsed = parseModelSpec(ref);
    if (!parsed.ok) throw new GuardrailCheckFailed("guardrail.check_failed", `llm_judge: ${parsed.error.message}`);
    const spec = { ...parsed.spec, temperature: 0 };
    const message = guardrailJudgeMessage(check.rubric, stage, text);
    const estimate = Math.ceil((GUARDRAIL_JUDGE_SYSTEM.length + message.length) / 4) + JUDGE_OUTPUT_TOKENS;
    await this.reserve(estimate);
    let result: Awaited<ReturnType<typeof callModel>>;
    try {
      result = await callModel({
        spec,
        settings: this.pass.deps.providerSettings,
        system: GUARDRAIL_JUDGE_SYSTEM,
        messages: [{ role: "user", text: message }],
        signal: this.signal,
      });
    } catch (error) {
      throw failure(error, "llm_judge");
    }
    this.used.calls++;
    this.used.tokens += result.usage.inputTokens + result.usage.outputTokens;
    const costUsd = costOf(modelCatalogueOf(this.pass.ctx.config.env).resolve(spec).pricing, result.usage);
    this.used.micro += costUsd === null ? 0 : microUsd(costUsd);
    const read = judgeVerdict(check, result.text);
    if (!read.ok) throw new GuardrailCheckFailed("guardrail.check_failed", `llm_judge: ${read.problem}`);
    return {
      verdict: read.verdict,
      model: formatModelSpec(spec),
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      costUsd,
    };
  }

  private async reserve(tokens: number): Promise<void> {
    await this.pass.recording;
    const reservation = await reserveUsageNow(this.pass.ctx, {
      workspaceId: this.pass.info.workspaceId,
      agentId: this.pass.info.agentId,
      reserve: [
        { meter: "model_calls", amount: 1 },
        ...(tokens > 0 ? [{ meter: "tokens" as const, amount: tokens }] : []),
      ],
      check: ["cost_usd", ...(tokens > 0 ? [] : ["tokens" as const])],
    });
    if (reservation.exceeded) {
      throw new GuardrailCheckFailed("budget.exceeded", `${exceededMessage(reservation.exceeded)} (guardrail check)`);
    }
    if (reservation.recorded) {
      this.reserved.calls++;
      this.reserved.tokens += tokens;
    }
  }

  /** Records the settlement outside a commit (the screening was stopped before its decisions could be written). */
  giveBack(): void {
    const usage = this.settlement();
    if (usage) this.pass.recordUsage(usage);
  }

  /** What the commit of the decisions counts (the real calls and tokens beyond the reservations, and the cost). */
  settlement(): CommittedUsage | undefined {
    const usages = (
      [
        { meter: "model_calls", amount: this.used.calls - this.reserved.calls },
        { meter: "tokens", amount: this.used.tokens - this.reserved.tokens },
        { meter: "cost_usd", amount: this.used.micro },
      ] as UsageAmount[]
    ).filter((u) => u.amount !== 0);
    if (usages.length === 0) return undefined;
    return { workspaceId: this.pass.info.workspaceId, agentId: this.pass.info.agentId, usages };
  }
}

interface Run {
  verdict: ModelVerdict;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

function failure(error: unknown, what: string): unknown {
  if (error instanceof ModelCallError) {
    return new GuardrailCheckFailed("guardrail.check_failed", `${what}: the check could not run: ${error.message}`);
  }
  return error;
}

/** What the model-backed guardrails of a stage decided about one text. */
export interface ModelBackedScreen {
  decisions: GuardrailDecision[];
  /** The name of the guardrail that blocked, if one did. */
  blockedBy?: string;
  /** A check could not decide: the decisions before it are kept (their calls were made). */
  failed?: GuardrailCheckFailed;
}

/**
 * Runs the model-backed guardrails of a stage on a text, in order, until one blocks (skipping those in `decided`).
 * A check that cannot decide stops the run and is reported, with the decisions made before it.
 */
export async function screenWithModels(
  calls: GuardrailModelCalls,
  guardrails: readonly NamedGuardrail[],
  stage: GuardrailStage,
  text: string,
  target: { targetSeq?: number; toolUseId?: string },
  decided?: ReadonlySet<string>,
): Promise<ModelBackedScreen> {
  const decisions: GuardrailDecision[] = [];
  try {
    for (const named of guardrails) {
      if (!isModelBacked(named.guardrail) || decided?.has(named.name)) continue;
      const decision = await calls.decide(named, stage, text, target);
      decisions.push(decision);
      if (decision.triggered && named.guardrail.action === "block") return { decisions, blockedBy: named.name };
    }
    return { decisions };
  } catch (error) {
    if (!(error instanceof GuardrailCheckFailed)) {
      // Interrupted, lease lost, shutdown: nothing is written, and the budgets keep only what the calls really used.
      calls.giveBack();
      throw error;
    }
    return { decisions, failed: error };
  }
}
