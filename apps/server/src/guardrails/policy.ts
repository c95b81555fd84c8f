import {
  type Guardrail,
  type GuardrailStage,
  guardrailName,
  MODEL_BACKED_CHECKS,
  type SessionGuardrailEvent,
} from "@agent-platform/contract";

/** A guardrail with its name (what decisions carry). */
export interface NamedGuardrail {
  name: string;
  guardrail: Guardrail;
}

/** The payload of a `session.guardrail` entry. */
export type GuardrailDecision = Omit<SessionGuardrailEvent, "seq" | "id" | "type" | "createdAt">;

export const GUARDRAIL_ENTRY = "session.guardrail";

/**
 * The guardrails a session runs: its own (`guardrails` given at creation, `[]` included) when it has them, else the
 * agent version's.
 */
export function sessionGuardrails(
  override: readonly Guardrail[] | null | undefined,
  agent: { guardrails?: readonly Guardrail[] | undefined },
): readonly Guardrail[] {
  return override ?? agent.guardrails ?? [];
}

/** The guardrails of one stage, in configuration order. */
export function guardrailsAt(guardrails: readonly Guardrail[], stage: GuardrailStage): NamedGuardrail[] {
  const out: NamedGuardrail[] = [];
  for (const guardrail of guardrails)
    if (guardrail.stage === stage) out.push({ name: guardrailName(guardrail), guardrail });
  return out;
}

export function isModelBacked(guardrail: Guardrail): boolean {
  return MODEL_BACKED_CHECKS.includes(guardrail.check.type);
}

/**
 * Whether user messages posted to a session with these guardrails must be screened where they are stored: an `input`
 * guardrail that redacts offline without keeping the original (the log must never hold what it removes).
 */
export function redactsStoredInput(guardrails: readonly Guardrail[]): boolean {
  return guardrails.some((g) => g.stage === "input" && g.action === "redact" && !g.keepOriginal && !isModelBacked(g));
}
