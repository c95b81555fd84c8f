import type { ModelSpec } from "./model-spec.js";

/** Image types both Anthropic's Messages API and OpenAI's Responses API take (others are refused with a 400). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * Whether a model takes an image of this type inside a tool result. One place for the decision, until the model
 * catalogue (issue #27) knows it per model. Per provider as the AI SDK sends them: Anthropic's Messages API and
 * OpenAI's Responses API take PNG, JPEG, GIF and WebP image parts in tool results; the Chat Completions protocol of
 * `openai-compatible` takes only text there (the SDK would paste the image as JSON text); the offline models read text
 * only. No provider takes audio in tool results.
 */
export function acceptsToolResultImage(spec: Pick<ModelSpec, "provider" | "modelId">, mimeType: string): boolean {
  return (spec.provider === "anthropic" || spec.provider === "openai") && IMAGE_TYPES.has(mimeType.toLowerCase());
}
