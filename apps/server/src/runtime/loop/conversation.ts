import type { ConversationMessage, ConversationToolResult } from "../../models/index.js";
import type { StoredEvent } from "../../sessions/index.js";
import { contentText, EV } from "./events.js";
import { inputDecisions, userTextForModel } from "./guarded-view.js";
import { asRecord, type ModelStep } from "./log-state.js";

/**
 * The conversation for the next model call. A model step is placed right after the newest entry it had in its context
 * (`contextSeq`), so a message that arrived while the model was answering comes after that answer and its tool
 * results, in log order. Tool calls are identified by their tool-use event ids.
 */
export function buildConversation(events: readonly StoredEvent[], steps: readonly ModelStep[]): ConversationMessage[] {
  type Item = { pos: number; order: number; message?: string; step?: ModelStep };
  const items: Item[] = [];
  let order = 0;
  // Input guardrails: blocked messages are never sent, redactions whose original the log keeps are applied.
  const guarded = inputDecisions(events);
  for (const event of events) {
    if (event.type !== EV.userMessage) continue;
    const message = userTextForModel(event, guarded);
    if (message !== null) items.push({ pos: event.seq, order: order++, message });
  }
  for (const step of steps) items.push({ pos: step.contextSeq + 0.5, order: order++, step });
  items.sort((a, b) => a.pos - b.pos || a.order - b.order);

  const messages: ConversationMessage[] = [];
  for (const item of items) {
    if (item.message !== undefined) {
      messages.push({ role: "user", text: item.message });
      continue;
    }
    const step = item.step!;
    messages.push({
      role: "assistant",
      ...(step.reasoning ? { reasoning: step.reasoning } : {}),
      ...(step.text ? { text: step.text } : {}),
      ...(step.toolUses.length > 0
        ? { toolCalls: step.toolUses.map((u) => ({ id: u.id, name: u.name, input: asRecord(u.input) })) }
        : {}),
    });
    if (step.toolUses.length > 0) {
      messages.push({
        role: "tool",
        results: step.toolUses.map(
          (u): ConversationToolResult => ({
            toolCallId: u.id,
            toolName: u.name,
            output: u.result?.text ?? "The tool produced no result",
            isError: u.result?.isError ?? true,
            ...(u.result?.media ? { media: u.result.media } : {}),
          }),
        ),
      });
    }
  }
  return messages;
}

/** The text of the newest `agent.message`, "" when there is none. */
export function lastAgentText(events: readonly StoredEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === EV.agentMessage) return contentText(event.content);
  }
  return "";
}
