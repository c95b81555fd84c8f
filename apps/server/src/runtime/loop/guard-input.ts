import type { AgentConfig } from "@agent-platform/contract";
import {
  applyRedactions,
  GUARDRAIL_ENTRY,
  type GuardrailDecision,
  guardrailsAt,
  screenOffline,
  sessionGuardrails,
} from "../../guardrails/index.js";
import type { NewEvent } from "../../sessions/index.js";
import { contentText, EV, errorEvent, idleEvent } from "./events.js";
import { inputDecisions } from "./guarded-view.js";
import { type GuardrailCheckFailed, GuardrailModelCalls, screenWithModels } from "./guardrail-calls.js";
import type { LogState } from "./log-state.js";
import { idleStatus, type SessionPass } from "./pass.js";

/**
 * The `input` stage, before a model call: the user messages the model has not seen yet are checked by every input
 * guardrail that has not decided on them (those that redact where messages are stored already did, at ingestion), in
 * order; model-backed checks are sent the text as the model would be (kept redactions applied) and are skipped once a
 * guardrail blocked. The decisions are committed (with the checks' usage) before anything is sent to the model:
 * - a block ends the turn (`guardrail_blocked`); the message is never sent to the model, in this turn or later;
 * - otherwise the loop looks at the log again (`again`), so the call is made with the redactions in view.
 * `go`: nothing to decide, call the model. Costs nothing for a session without input guardrails.
 */
export async function screenInput(
  pass: SessionPass,
  state: LogState,
  config: AgentConfig,
  running: Promise<void>,
  signal: AbortSignal,
): Promise<"go" | "again" | "settled"> {
  const guardrails = guardrailsAt(sessionGuardrails(pass.settings.guardrails, config), "input");
  if (guardrails.length === 0) return "go";
  const seenUpTo = state.steps.at(-1)?.contextSeq ?? 0;
  const known = inputDecisions(pass.log);
  const fresh = pass.log.filter((e) => e.type === EV.userMessage && e.seq > seenUpTo && !known?.blocked.has(e.seq));
  const calls = new GuardrailModelCalls(pass, pass.settings.model ?? config.model, signal);
  const decisions: GuardrailDecision[] = [];
  let blocked = false;
  let failed: GuardrailCheckFailed | undefined;
  for (const message of fresh) {
    const decided = known?.decided.get(message.seq) ?? new Set<string>();
    const text = contentText(message.content);
    const offline = screenOffline(guardrails, "input", text, { targetSeq: message.seq, decided, beforeStore: false });
    decisions.push(...offline.decisions);
    blocked = offline.blocked;
    if (blocked) break;
    // Model-backed checks are sent the text as the model would be (kept redactions applied).
    const seen = applyRedactions(text, [...(known?.kept.get(message.seq) ?? []), ...offline.keptSpans]);
    const withModels = await screenWithModels(calls, guardrails, "input", seen, { targetSeq: message.seq }, decided);
    decisions.push(...withModels.decisions);
    failed = withModels.failed;
    blocked = withModels.blockedBy !== undefined;
    if (blocked || failed) break;
  }
  if (decisions.length === 0 && !failed) return "go";
  await running;
  const entries: NewEvent[] = decisions.map((payload) => ({ type: GUARDRAIL_ENTRY, payload }));
  const usage = calls.settlement();
  if (failed) {
    await pass.append(
      [...entries, errorEvent(failed.code, failed.message), idleEvent("error")],
      idleStatus("error"),
      usage,
    );
    return "settled";
  }
  if (blocked) {
    await pass.append([...entries, idleEvent("guardrail_blocked")], idleStatus("guardrail_blocked"), usage);
    return "settled";
  }
  await pass.append(entries, undefined, usage);
  return "again";
}
