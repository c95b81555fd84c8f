import type { AgentConfig } from "@agent-platform/contract";
import type { UsageAmount } from "../../budgets/index.js";
import {
  GUARDRAIL_ENTRY,
  type GuardrailDecision,
  guardrailsAt,
  screenOffline,
  sessionGuardrails,
} from "../../guardrails/index.js";
import type { CommittedUsage, NewEvent } from "../../sessions/index.js";
import { withdrawLiveReply } from "../../sessions/index.js";
import { errorEvent, idleEvent } from "./events.js";
import { GuardrailModelCalls, screenWithModels } from "./guardrail-calls.js";
import type { SessionPass } from "./pass.js";

/** What the `output` guardrails made of a reply's text. */
export interface OutputScreen {
  /** The text to write (redacted where a guardrail redacted). */
  text: string;
  decisions: GuardrailDecision[];
  /** The reply must not be written: a guardrail blocked it, or a check could not run. */
  stop?: { events: NewEvent[]; stopReason: "guardrail_blocked" | "error" };
  usage?: CommittedUsage;
}

/**
 * The `output` stage, on the whole text of a reply before anything of it is written to the log (so before any
 * follower reads it as final): the offline guardrails in order, then the model-backed ones on the redacted text
 * unless one blocked. Followers that were sent the reply's deltas are told they are withdrawn when it is blocked or
 * redacted. Null for a session without output guardrails or a reply without text (nothing to do, nothing spent).
 */
export async function screenOutput(
  pass: SessionPass,
  config: AgentConfig,
  text: string,
  streamed: { afterSeq: number; call: number } | undefined,
  signal: AbortSignal,
): Promise<OutputScreen | null> {
  if (text.length === 0) return null;
  const guardrails = guardrailsAt(sessionGuardrails(pass.settings.guardrails, config), "output");
  if (guardrails.length === 0) return null;
  const offline = screenOffline(guardrails, "output", text, { beforeStore: true });
  const calls = new GuardrailModelCalls(pass, pass.settings.model ?? config.model, signal);
  const withModels = offline.blocked
    ? { decisions: [] }
    : await screenWithModels(calls, guardrails, "output", offline.text, {});
  const decisions = [...offline.decisions, ...withModels.decisions];
  const blocked = offline.blocked || withModels.blockedBy !== undefined;
  const failed = withModels.failed;
  const usage = calls.settlement();
  const redacted = offline.text !== text;
  if (streamed && (blocked || failed || redacted)) {
    await withdrawLiveReply(
      pass.ctx,
      pass.info.id,
      streamed,
      blocked || failed ? "guardrail_blocked" : "guardrail_redacted",
    );
  }
  const entries = (): NewEvent[] => decisions.map((payload) => ({ type: GUARDRAIL_ENTRY, payload }));
  const stop = failed
    ? {
        events: [...entries(), errorEvent(failed.code, failed.message), idleEvent("error")],
        stopReason: "error" as const,
      }
    : blocked
      ? { events: [...entries(), idleEvent("guardrail_blocked")], stopReason: "guardrail_blocked" as const }
      : undefined;
  return { text: offline.text, decisions, ...(stop ? { stop } : {}), ...(usage ? { usage } : {}) };
}

/** The decisions about a written reply, naming its `agent.message` entry (`messageSeq`). */
export function outputDecisionEvents(screen: OutputScreen, messageSeq: number | undefined): NewEvent[] {
  return screen.decisions.map((decision) => ({
    type: GUARDRAIL_ENTRY,
    payload: messageSeq !== undefined ? { ...decision, targetSeq: messageSeq } : decision,
  }));
}

/** Two usages of one commit (the model call's and its checks'), one amount per meter (a counter row is written once). */
export function withGuardrailUsage(usage: CommittedUsage, extra: CommittedUsage | undefined): CommittedUsage {
  if (!extra) return usage;
  const sums = new Map<UsageAmount["meter"], number>();
  for (const u of [...usage.usages, ...extra.usages]) sums.set(u.meter, (sums.get(u.meter) ?? 0) + u.amount);
  return { ...usage, usages: [...sums].map(([meter, amount]) => ({ meter, amount })) };
}
