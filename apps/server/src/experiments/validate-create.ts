import type { CreateExperiment, ValidationIssue } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { invalidRequest } from "../http/error-envelope.js";
import { checkModelAvailable, parseModelSpec, providerSettingsOf } from "../models/index.js";
import { regexProblem } from "../scoring/regex.js";

/** The judge model when an `llm_judge` scorer names none: `EXPERIMENT_JUDGE_MODEL`, else the task's model. */
export function defaultJudgeModel(ctx: AppContext): string | undefined {
  return ctx.config.env.EXPERIMENT_JUDGE_MODEL?.trim() || undefined;
}

/**
 * What the schema cannot check: regex scorers must compile on RE2 (400 at the pattern's path), and the models named
 * (a model task's model, a judge's model) must have a known provider with credentials on this server (422
 * `experiment.invalid_model`): such a run could only fail case by case.
 */
export function validateCreate(ctx: AppContext, body: CreateExperiment): void {
  const issues: ValidationIssue[] = [];
  body.scorers.forEach((scorer, index) => {
    if (scorer.type !== "regex") return;
    const problem = regexProblem(scorer.pattern, scorer.flags);
    if (problem) issues.push({ path: `body.scorers.${index}.pattern`, message: problem });
  });
  if (body.task.type === "agent") {
    body.task.outcome?.scorers.forEach((scorer, index) => {
      if (scorer.type !== "regex") return;
      const problem = regexProblem(scorer.pattern, scorer.flags);
      if (problem) issues.push({ path: `body.task.outcome.scorers.${index}.pattern`, message: problem });
    });
  }
  if (issues.length > 0) throw invalidRequest(issues);

  const settings = providerSettingsOf(ctx.config.env);
  const check = (model: string, where: string) => {
    const parsed = parseModelSpec(model);
    const problem = parsed.ok ? checkModelAvailable(parsed.spec, settings) : parsed.error.message;
    if (problem) throw new AppError("experiment.invalid_model", `${where}: ${problem}`);
  };
  if (body.task.type === "model") check(body.task.model, "task.model");
  body.scorers.forEach((scorer, index) => {
    if (scorer.type !== "llm_judge") return;
    const model = scorer.model ?? defaultJudgeModel(ctx);
    if (model) check(model, `scorers.${index}.model`);
  });
}
