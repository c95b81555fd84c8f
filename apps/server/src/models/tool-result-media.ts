import type { ModelSpec } from "./model-spec.js";

/**
 * Whether a model takes images inside tool results. One place for the decision, until the model catalogue (issue #27)
 * knows it per model. Per provider as the AI SDK sends them: Anthropic's Messages API and OpenAI's Responses API take
 * image parts in tool results; the Chat Completions protocol of `openai-compatible` takes only text there (the SDK
 * would paste the image as JSON text); the offline models read text only. No provider takes audio in tool results.
 */
export function acceptsImagesInToolResults(spec: Pick<ModelSpec, "provider" | "modelId">): boolean {
  return spec.provider === "anthropic" || spec.provider === "openai";
}
