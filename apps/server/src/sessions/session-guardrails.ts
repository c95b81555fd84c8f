import type { AgentConfig, Guardrail } from "@agent-platform/contract";
import { checkGuardrails } from "../agents/index.js";
import type { AppContext } from "../context.js";
import { redactsStoredInput, sessionGuardrails } from "../guardrails/index.js";
import { modelCatalogueOf, providerSettingsOf } from "../models/index.js";
import type { NewSession } from "./log/index.js";
import { storedInputScreen } from "./screen-stored-input.js";

/**
 * What a session's guardrails add to its creation: its own guardrails in its loop settings (when given: they replace
 * the agent version's), and the screening of posted messages where they are stored when an input guardrail redacts
 * without keeping the original.
 */
export function sessionGuardrailSettings(
  own: Guardrail[] | undefined,
  config: AgentConfig,
): { session: Pick<NewSession, "screensInput" | "screen">; loop?: { guardrails: Guardrail[] } } {
  const guardrails = sessionGuardrails(own, config);
  const screen = storedInputScreen(guardrails);
  return {
    session: redactsStoredInput(guardrails) ? { screensInput: true, ...(screen ? { screen } : {}) } : {},
    ...(own ? { loop: { guardrails: own } } : {}),
  };
}

/** A session's own guardrails are checked as an agent's are (400 at their paths, 422 `agent.invalid_model`). */
export function checkSessionGuardrails(ctx: AppContext, guardrails: Guardrail[] | undefined): void {
  if (!guardrails) return;
  checkGuardrails(guardrails, "body.guardrails", providerSettingsOf(ctx.config.env), modelCatalogueOf(ctx.config.env));
}
