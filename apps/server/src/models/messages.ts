import type { ModelMessage } from "ai";

export interface ConversationToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ConversationToolResult {
  toolCallId: string;
  toolName: string;
  output: string;
  isError: boolean;
}

/** The runtime's own conversation history, independent of any model SDK. */
export type ConversationMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text?: string; toolCalls?: ConversationToolCall[] }
  | { role: "tool"; results: ConversationToolResult[] };

/**
 * Converts the conversation to AI SDK messages. Assistant messages with neither text nor tool
 * calls are dropped (providers such as Anthropic reject empty assistant turns), as are empty
 * tool messages.
 */
export function toModelMessages(messages: readonly ConversationMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "user":
        out.push({ role: "user", content: message.text });
        break;
      case "assistant": {
        const content: Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string> = [];
        if (message.text) content.push({ type: "text", text: message.text });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input });
        }
        if (content.length > 0) out.push({ role: "assistant", content });
        break;
      }
      case "tool":
        if (message.results.length === 0) break;
        out.push({
          role: "tool",
          content: message.results.map((result) => ({
            type: "tool-result" as const,
            toolCallId: result.toolCallId,
            toolName: result.toolName,
            output: result.isError
              ? { type: "error-text" as const, value: result.output }
              : { type: "text" as const, value: result.output },
          })),
        });
        break;
    }
  }
  return out;
}

/** Text of the last user message, or "" when there is none. */
export function lastUserText(messages: readonly ConversationMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === "user") return message.text;
  }
  return "";
}
