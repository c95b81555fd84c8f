export interface ModelToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool input (an object schema). */
  inputSchema: Record<string, unknown>;
}

export interface ModelToolCall {
  id: string;
  name: string;
  /** Parsed JSON input; the raw text when the model produced input that is not valid JSON. */
  input: unknown;
  /** Set when the call cannot be used as is (unknown tool, unparsable input). */
  inputError?: string;
}

export type ModelFinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";

export interface ModelUsage {
  /** All prompt tokens of the call, cached ones included. */
  inputTokens: number;
  /** All completion tokens, reasoning included. */
  outputTokens: number;
  /** Of `inputTokens`: read from the provider's prompt cache (0 or absent when it reports none). */
  cacheReadTokens?: number;
  /** Of `inputTokens`: written to the prompt cache (Anthropic bills them above the input price). */
  cacheWriteTokens?: number;
  /** Of `outputTokens`: reasoning (thinking) tokens, as the provider reports them. */
  reasoningTokens?: number;
}

/**
 * Thinking the provider returned with a response, kept exactly as it came: `providerMetadata` holds what the provider
 * needs to have it back (Anthropic's `signature` or `redactedData`, OpenAI's reasoning item id and encrypted content).
 */
export interface ModelReasoningPart {
  text: string;
  providerMetadata?: Record<string, Record<string, unknown>>;
}

export interface ModelCallResult {
  text: string;
  /** Absent or empty when the model returned no thinking. */
  reasoning?: ModelReasoningPart[];
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
  finishReason: ModelFinishReason;
  /** Duration of the successful provider request, from sending it to the end of its stream. */
  providerLatencyMs: number;
}
