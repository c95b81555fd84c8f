import type { ModelCapabilities } from "./catalogue.js";
import type { ModelSpec } from "./model-spec.js";

/** Image types Anthropic's Messages API, OpenAI's Responses API and Chat Completions all take (others: a 400). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * Where a model is shown an image of a tool result: inside the result (`tool_result`), in a user message right after
 * the tool results (`user_message`), or not at all (null: it is told what the image was instead).
 */
export type ToolResultImagePlacement = "tool_result" | "user_message";

/** A model as the decision needs it: its provider, and its capabilities (the catalogue's under the agent's). */
export interface ImageTakingModel {
  provider: ModelSpec["provider"];
  capabilities?: Partial<ModelCapabilities>;
}

/**
 * Where `model` is shown a tool result's image of this type, the one place for the decision. Anthropic's Messages API
 * and OpenAI's Responses API take PNG, JPEG, GIF and WebP image parts in tool results (unless the catalogue or the
 * agent says the model takes no images). Chat Completions (`openai-compatible`) takes only text in `tool` messages; a
 * vision model there (the catalogue's or the agent's `capabilities.images`) takes images in `user` messages, so its
 * images go in one right after the tool results — the shape LiteLLM and the AI SDK use. The offline models read text
 * only. No provider takes audio in tool results.
 */
export function toolResultImagePlacement(model: ImageTakingModel, mimeType: string): ToolResultImagePlacement | null {
  if (!IMAGE_TYPES.has(mimeType.toLowerCase())) return null;
  if (model.provider === "anthropic" || model.provider === "openai") {
    return model.capabilities?.images === false ? null : "tool_result";
  }
  return model.provider === "openai-compatible" && model.capabilities?.images === true ? "user_message" : null;
}
