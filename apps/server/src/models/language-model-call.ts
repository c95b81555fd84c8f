import { createRequire } from "node:module";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolCall,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { safeParseJSON, withUserAgentSuffix } from "@ai-sdk/provider-utils";
import { InvalidToolInputError, MissingToolResultsError, type ModelMessage, NoSuchToolError } from "ai";
import type { ModelCallResult, ModelReasoningPart, ModelToolCall, ModelToolDefinition } from "./model-result.js";

/**
 * One model call through the provider's own `doGenerate` (the AI SDK's provider interface, `LanguageModelV3`), for
 * callers that read no reply as it is written. `generateText` does the same call with an orchestration built for
 * multi-step agents (prompt validation with Zod, tool execution and approvals, step callbacks, telemetry, a general
 * result): ~830 µs of CPU per call on the bench VM against ~400 µs this way. This file does
 * only the parts that apply to one step with tools the caller runs, exactly as `generateText` does them: the prompt
 * conversion (`convertToLanguageModelPrompt`), the tools (`prepareToolsAndToolChoice`) and the tool calls
 * (`parseToolCall`, with the SDK's own errors and JSON parser).
 */
export interface LanguageModelRequest {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  tools?: LanguageModelV3FunctionTool[];
  temperature?: number;
  maxOutputTokens?: number;
  providerOptions?: LanguageModelV3CallOptions["providerOptions"];
}

/** The user agent `generateText` sends (`ai/<version>`, which the providers keep in place of their own name). */
const AI_SDK_HEADERS = withUserAgentSuffix(
  {},
  `ai/${(createRequire(import.meta.url)("ai/package.json") as { version: string }).version}`,
);

type ToolMessage = Extract<LanguageModelV3Message, { role: "tool" }>;

/** `messages` (as `toModelMessages` makes them: user text, assistant text and tool calls, tool results) as a prompt. */
export function toLanguageModelPrompt(system: string | undefined, messages: readonly ModelMessage[]) {
  const prompt: LanguageModelV3Message[] = system !== undefined ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    const last = prompt.at(-1);
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        if (typeof message.content === "string") {
          prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
          break;
        }
        prompt.push({ role: "user", content: message.content.map(userPart) });
        break;
      case "assistant": {
        if (typeof message.content === "string") {
          prompt.push({ role: "assistant", content: [{ type: "text", text: message.content }] });
          break;
        }
        const content: Extract<LanguageModelV3Message, { role: "assistant" }>["content"] = [];
        for (const part of message.content) {
          if (part.type === "text") {
            if (part.text !== "") content.push({ type: "text", text: part.text });
          } else if (part.type === "reasoning") {
            // Thinking goes back exactly as the provider returned it (its signature in `providerOptions`).
            content.push({
              type: "reasoning",
              text: part.text,
              ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
            });
          } else if (part.type === "tool-call") {
            content.push({
              type: "tool-call",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
            });
          }
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const results: ToolMessage["content"] = [];
        for (const part of message.content) {
          if (part.type !== "tool-result") continue;
          // Our outputs are `text`, `error-text` or `content` with text and `image-data` parts: the same in both formats
          // (the SDK maps only `image-url` / `file-url` parts of `content` outputs, which we never send).
          const output = part.output as LanguageModelV3ToolResultOutput;
          results.push({ type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output });
        }
        // Consecutive tool messages are one, as the SDK sends them.
        if (last?.role === "tool") last.content.push(...results);
        else prompt.push({ role: "tool", content: results });
        break;
      }
    }
  }
  checkToolResults(prompt);
  return prompt.filter((message) => message.role !== "tool" || message.content.length > 0);
}

type UserPart = Extract<LanguageModelV3Message, { role: "user" }>["content"][number];

/** A part of a user message as `generateText` converts it: text, or an image (base64, as `toModelMessages` sends it). */
function userPart(part: Exclude<Extract<ModelMessage, { role: "user" }>["content"], string>[number]): UserPart {
  if (part.type === "text") return { type: "text", text: part.text };
  if (part.type === "image" && typeof part.image === "string" && part.mediaType) {
    return { type: "file", mediaType: part.mediaType, data: part.image };
  }
  throw new Error("user messages carry text and base64 images");
}

/** Every tool call has its result before the next user or system message (the SDK refuses the prompt otherwise). */
function checkToolResults(prompt: readonly LanguageModelV3Message[]): void {
  const open = new Set<string>();
  for (const message of prompt) {
    if (message.role === "assistant") {
      for (const part of message.content) if (part.type === "tool-call") open.add(part.toolCallId);
    } else if (message.role === "tool") {
      for (const part of message.content) if (part.type === "tool-result") open.delete(part.toolCallId);
    } else if (open.size > 0) throw new MissingToolResultsError({ toolCallIds: [...open] });
  }
  if (open.size > 0) throw new MissingToolResultsError({ toolCallIds: [...open] });
}

export function toLanguageModelTools(
  tools: readonly ModelToolDefinition[] | undefined,
): LanguageModelV3FunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as LanguageModelV3FunctionTool["inputSchema"],
  }));
}

function invalidCall(call: LanguageModelV3ToolCall, input: unknown, error: Error): ModelToolCall {
  return { id: call.toolCallId, name: call.toolName, input, inputError: error.message };
}

/** A tool call as `generateText` reports it: input parsed as JSON ("" is `{}`), unknown tools and bad JSON flagged. */
async function parseToolCall(call: LanguageModelV3ToolCall, toolNames: readonly string[]): Promise<ModelToolCall> {
  if (!toolNames.includes(call.toolName)) {
    const parsed = await safeParseJSON({ text: call.input });
    const error =
      toolNames.length === 0
        ? new NoSuchToolError({ toolName: call.toolName })
        : new NoSuchToolError({ toolName: call.toolName, availableTools: [...toolNames] });
    return invalidCall(call, parsed.success ? parsed.value : call.input, error);
  }
  if (call.input.trim() === "") return { id: call.toolCallId, name: call.toolName, input: {} };
  const parsed = await safeParseJSON({ text: call.input });
  if (!parsed.success) {
    const error = new InvalidToolInputError({ toolName: call.toolName, toolInput: call.input, cause: parsed.error });
    return invalidCall(call, call.input, error);
  }
  return { id: call.toolCallId, name: call.toolName, input: parsed.value };
}

/** One request and one response; provider errors are thrown as the provider package throws them. */
export async function generateWithLanguageModel(
  request: LanguageModelRequest,
  signal: AbortSignal | undefined,
): Promise<Omit<ModelCallResult, "providerLatencyMs">> {
  const options: LanguageModelV3CallOptions = {
    prompt: request.prompt,
    ...(request.tools ? { tools: request.tools, toolChoice: { type: "auto" } } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    ...(request.providerOptions ? { providerOptions: request.providerOptions } : {}),
    ...(signal ? { abortSignal: signal } : {}),
    headers: AI_SDK_HEADERS,
  };
  const result = await request.model.doGenerate(options);
  let text = "";
  const calls: LanguageModelV3ToolCall[] = [];
  const reasoning: ModelReasoningPart[] = [];
  for (const part of result.content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "tool-call") calls.push(part);
    else if (part.type === "reasoning") {
      reasoning.push({
        text: part.text,
        ...(part.providerMetadata
          ? { providerMetadata: part.providerMetadata as ModelReasoningPart["providerMetadata"] }
          : {}),
      });
    }
  }
  const toolNames = request.tools?.map((tool) => tool.name) ?? [];
  return {
    text,
    ...(reasoning.length > 0 ? { reasoning } : {}),
    toolCalls: await Promise.all(calls.map((call) => parseToolCall(call, toolNames))),
    usage: {
      inputTokens: result.usage.inputTokens.total ?? 0,
      outputTokens: result.usage.outputTokens.total ?? 0,
      cacheReadTokens: result.usage.inputTokens.cacheRead ?? 0,
      cacheWriteTokens: result.usage.inputTokens.cacheWrite ?? 0,
      reasoningTokens: result.usage.outputTokens.reasoning ?? 0,
    },
    finishReason: result.finishReason.unified,
  };
}
