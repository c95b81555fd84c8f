import type { ModelMessage } from "ai";
import type { ModelReasoningPart } from "./model-result.js";

type ToolResultOutput = Extract<
  Exclude<Extract<ModelMessage, { role: "tool" }>["content"][number], { type: "tool-approval-response" }>,
  { type: "tool-result" }
>["output"];

export interface ConversationToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** Binary content of a tool result, stored as a session artifact. */
export interface ConversationMedia {
  type: "image" | "audio" | "resource";
  mimeType: string;
  artifactId: string;
  bytes: number;
  /** Resources: their URI. */
  uri?: string;
  /** Base64 content, present when the model is to see it inside the result (a model that takes images there). */
  data?: string;
  /** Shown to the model in the user message right after the tool results (a Chat Completions vision model). */
  shownAfter?: boolean;
  /** Why the model does not see it, for its note (default: the model takes no such content in tool results). */
  notShown?: string;
}

export interface ConversationToolResult {
  toolCallId: string;
  toolName: string;
  output: string;
  isError: boolean;
  media?: ConversationMedia[];
}

/** An image of a user message (base64). */
export interface ConversationImage {
  mimeType: string;
  data: string;
}

/** The runtime's own conversation history, independent of any model SDK. */
export type ConversationMessage =
  | { role: "user"; text: string; images?: ConversationImage[] }
  | { role: "assistant"; text?: string; toolCalls?: ConversationToolCall[]; reasoning?: ModelReasoningPart[] }
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
        out.push(
          message.images?.length
            ? {
                role: "user",
                content: [
                  { type: "text", text: message.text },
                  ...message.images.map((i) => ({ type: "image" as const, image: i.data, mediaType: i.mimeType })),
                ],
              }
            : { role: "user", content: message.text },
        );
        break;
      case "assistant": {
        const content: Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string> = [];
        // Thinking first, as it came (providers refuse a tool-use turn whose signed thinking is dropped or altered).
        for (const part of message.reasoning ?? []) {
          content.push({
            type: "reasoning",
            text: part.text,
            ...(part.providerMetadata ? { providerOptions: part.providerMetadata as never } : {}),
          });
        }
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
            output: toolResultOutput(result),
          })),
        });
        break;
    }
  }
  return out;
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** How media the model does not see reads in the result's text: what it was and where it is kept. */
function mediaNote(media: ConversationMedia): string {
  const stored = `${size(media.bytes)}, stored as session artifact ${media.artifactId}`;
  switch (media.type) {
    case "image":
      if (media.shownAfter) return `[image ${media.mimeType}, ${stored}; shown in the message after the tool results]`;
      return `[image ${media.mimeType}, ${stored}; not shown: ${media.notShown ?? "this model does not take images in tool results"}]`;
    case "audio":
      return `[audio ${media.mimeType}, ${stored}; not played: ${media.notShown ?? "this model does not take audio in tool results"}]`;
    case "resource":
      return `[binary resource ${media.uri ?? ""} (${media.mimeType}), ${stored}]`;
  }
}

/**
 * A tool result as the model gets it: its text, followed by the images it may see as image parts (a `content` output;
 * only with data, see `ConversationMedia.data`) and a text note for every other medium.
 */
function toolResultOutput(result: ConversationToolResult): ToolResultOutput {
  const media = result.media ?? [];
  const shown = media.filter((m) => m.type === "image" && m.data !== undefined);
  const notes = media.filter((m) => !shown.includes(m)).map(mediaNote);
  const text = [result.output, ...notes].filter((t) => t.length > 0).join("\n");
  if (shown.length === 0 || result.isError) {
    return result.isError ? { type: "error-text", value: text } : { type: "text", value: text };
  }
  return {
    type: "content",
    value: [
      ...(text.length > 0 ? [{ type: "text" as const, text }] : []),
      ...shown.map((m) => ({ type: "image-data" as const, data: m.data!, mediaType: m.mimeType })),
    ],
  };
}

/** Text of the last user message, or "" when there is none. */
export function lastUserText(messages: readonly ConversationMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === "user") return message.text;
  }
  return "";
}
