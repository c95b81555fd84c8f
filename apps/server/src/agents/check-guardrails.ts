import type { Guardrail } from "@agent-platform/contract";
import { compileGuardrailPattern } from "../guardrails/index.js";
import { invalidRequest } from "../http/error-envelope.js";
import { DEFAULT_MODERATION_MODEL, type ModelCatalogue, type ProviderSettings } from "../models/index.js";
import { checkModel } from "./check-model.js";

/**
 * What the schema cannot check of guardrails, on write: their patterns must compile on RE2 (400 at the pattern's
 * path), and a model-backed check needs its provider configured here (422 `agent.invalid_model`, as for `model`):
 * `moderation` the `openai` provider, `llm_judge` its `model` (when given; the session's model is checked anyway).
 */
export function checkGuardrails(
  guardrails: readonly Guardrail[],
  path: string,
  settings: ProviderSettings,
  catalogue?: ModelCatalogue,
): void {
  const issues = guardrails.flatMap((g, i) =>
    g.check.type === "pii"
      ? (g.check.patterns ?? []).flatMap((p, j) => {
          const problem = patternProblem(p.pattern, p.flags);
          return problem ? [{ path: `${path}.${i}.check.patterns.${j}.pattern`, message: problem }] : [];
        })
      : [],
  );
  if (issues.length > 0) throw invalidRequest(issues);
  guardrails.forEach((g, i) => {
    const where = `Guardrail ${i} (${g.name ?? `${g.stage}.${g.check.type}`})`;
    if (g.check.type === "moderation") {
      checkModel(`openai/${g.check.model ?? DEFAULT_MODERATION_MODEL}`, settings, `${where}: moderation`);
    }
    if (g.check.type === "llm_judge" && g.check.model)
      checkModel(g.check.model, settings, `${where}: model`, catalogue);
  });
}

function patternProblem(pattern: string, flags?: string): string | null {
  try {
    compileGuardrailPattern(pattern, flags);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
