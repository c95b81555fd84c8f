import { type Guardrail, type UserEvent, type UserMessageEvent } from "@agent-platform/contract";
import { loadAgentVersion } from "../agents/index.js";
import type { AppContext } from "../context.js";
import {
  GUARDRAIL_ENTRY,
  type GuardrailDecision,
  guardrailsAt,
  isModelBacked,
  redactsStoredInput,
  screenOffline,
  sessionGuardrails,
} from "../guardrails/index.js";
import { type InputScreenOf, loadSessionLoopSettings, type NewEvent, type StoredInputScreen } from "./log/index.js";

type TextPart = UserMessageEvent["content"][number];

/**
 * The screen of posted user messages for a session with these guardrails, or undefined when none of them must act
 * where messages are stored: the `input` guardrails that redact offline without keeping the original. Each message is
 * stored redacted and followed by the decisions (`session.guardrail`, `originalKept: false`); every other input
 * guardrail runs in the loop, before the model call.
 */
export function storedInputScreen(guardrails: readonly Guardrail[]): StoredInputScreen | undefined {
  if (!redactsStoredInput(guardrails)) return undefined;
  const storing = guardrailsAt(guardrails, "input").filter(
    ({ guardrail: g }) => g.action === "redact" && !g.keepOriginal && !isModelBacked(g),
  );
  return (events) => {
    const decided: GuardrailDecision[][] = [];
    const screened = events.map((event, index): UserEvent => {
      decided[index] = [];
      if (event.type !== "user.message") return event;
      const { parts, decisions } = screenParts(storing, event.content);
      decided[index] = decisions;
      return decisions.length > 0 ? { ...event, content: parts } : event;
    });
    return {
      events: screened,
      after: (stored) =>
        stored.flatMap((entry, index): NewEvent[] =>
          (decided[index] ?? []).map((decision) => ({
            type: GUARDRAIL_ENTRY,
            payload: { ...decision, targetSeq: entry.seq },
          })),
        ),
    };
  };
}

/**
 * Screens each text part; offsets of the decisions are those of the message's text as the loop reads it (the parts
 * joined by newlines). One decision per guardrail, with the spans of every part.
 */
function screenParts(
  storing: ReturnType<typeof guardrailsAt>,
  content: readonly TextPart[],
): { parts: TextPart[]; decisions: GuardrailDecision[] } {
  const byGuardrail = new Map<string, GuardrailDecision>();
  let offset = 0;
  const parts = content.map((part) => {
    const result = screenOffline(storing, "input", part.text, { beforeStore: true });
    for (const decision of result.decisions) {
      const spans = decision.spans.map((s) => ({ ...s, start: s.start + offset, end: s.end + offset }));
      const known = byGuardrail.get(decision.guardrail);
      if (known) known.spans.push(...spans);
      else byGuardrail.set(decision.guardrail, { ...decision, spans });
    }
    offset += part.text.length + 1;
    return result.decisions.length > 0 ? { ...part, text: result.text } : part;
  });
  return { parts, decisions: [...byGuardrail.values()] };
}

/** For ingestion: the session's screen, from its own guardrails or its agent version's (read in the transaction). */
export function inputScreenOf(ctx: AppContext, projectId: string): InputScreenOf {
  return async (client, session) => {
    const settings = await loadSessionLoopSettings(client, session.id);
    const agent =
      settings.guardrails === null
        ? (await loadAgentVersion(ctx, projectId, session.agentId, session.agentVersion)).config
        : {};
    return storedInputScreen(sessionGuardrails(settings.guardrails, agent));
  };
}
