import { measure } from "../lib/telemetry/instruments.js";

/** One guardrail decision (a triggered check) counted on `agent_platform.guardrail.decisions`. */
export function recordDecisionMetric(stage: string, check: string, action: string): void {
  measure().guardrailDecisions.add(1, {
    "agent_platform.guardrail.stage": stage,
    "agent_platform.guardrail.check": check,
    "agent_platform.guardrail.action": action,
  });
}
