import {
  canonicalEmbeddingReference,
  type EmbeddingModelReference,
  type EmbeddingSpec,
  embeddingSpace,
  parseEmbeddingSpec,
} from "./embedding-spec.js";
import { checkModelAvailable, type ProviderSettings } from "./providers.js";

export interface ResolvedEmbeddingModel {
  spec: EmbeddingSpec;
  /** As stored and shown. */
  reference: EmbeddingModelReference;
  space: string;
}

/**
 * An embedding model named on write, checked as far as it can be then (like chat models, design.md §4): the form, a
 * builtin model that exists, and a provider with credentials in this server's environment. Whether the provider
 * knows the model id shows when the first passage is embedded.
 */
export function resolveEmbeddingModel(
  reference: unknown,
  settings: ProviderSettings,
): { ok: true; model: ResolvedEmbeddingModel } | { ok: false; message: string } {
  const parsed = parseEmbeddingSpec(reference);
  if (!parsed.ok) return parsed;
  const unavailable = checkModelAvailable({ provider: parsed.spec.provider }, settings);
  if (unavailable) return { ok: false, message: unavailable };
  return {
    ok: true,
    model: {
      spec: parsed.spec,
      reference: canonicalEmbeddingReference(parsed.spec),
      space: embeddingSpace(parsed.spec),
    },
  };
}
