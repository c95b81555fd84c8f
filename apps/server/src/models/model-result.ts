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
  inputTokens: number;
  outputTokens: number;
}

export interface ModelCallResult {
  text: string;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
  finishReason: ModelFinishReason;
  /** Duration of the successful provider request, from sending it to the end of its stream. */
  providerLatencyMs: number;
}
