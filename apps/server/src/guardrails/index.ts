export { compileGuardrailPattern } from "./checks/patterns.js";
export type { CheckVerdict, Finding } from "./findings.js";
export { recordDecisionMetric } from "./metric.js";
export {
  DEFAULT_JUDGE_THRESHOLD,
  GUARDRAIL_JUDGE_SYSTEM,
  guardrailJudgeMessage,
  judgeVerdict,
  type ModelVerdict,
  moderationVerdict,
} from "./model-checks.js";
export { isOfflineCheck, type OfflineCheck, runOfflineCheck } from "./offline-check.js";
export {
  GUARDRAIL_ENTRY,
  type GuardrailDecision,
  guardrailsAt,
  isModelBacked,
  type NamedGuardrail,
  redactsStoredInput,
  sessionGuardrails,
} from "./policy.js";
export { applyRedactions, redactionMark } from "./redact.js";
export { type OfflineScreen, type ScreenOptions, screenOffline } from "./screen.js";
