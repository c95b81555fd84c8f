import type { CatalogueEmbeddingModel } from "@agent-platform/sdk";
import { useEmbeddingModels } from "../lib/catalogue.js";
import { formatNumber } from "../lib/format.js";

const OTHER = "__other__";

/** The embedding model as the form edits it: a catalogue id (or "other" with its id typed) and shorter vectors. */
export interface EmbeddingModelDraft {
  choice: string;
  otherId: string;
  dimensions: string;
}

export const DEFAULT_EMBEDDING_DRAFT: EmbeddingModelDraft = { choice: "", otherId: "", dimensions: "" };

/** What the API takes as `embeddingModel`: the string form unless shorter vectors are asked for; undefined: the default. */
export function embeddingModelOf(draft: EmbeddingModelDraft): string | { id: string; dimensions: number } | undefined {
  const id = draft.choice === OTHER ? draft.otherId.trim() : draft.choice;
  if (!id) return undefined;
  return draft.dimensions.trim() ? { id, dimensions: Number(draft.dimensions) } : id;
}

export function describeEmbeddingModel(m: CatalogueEmbeddingModel): string {
  const price = m.pricing ? (m.pricing.input === 0 ? "free" : `$${m.pricing.input} per M tokens`) : "price unknown";
  return `${formatNumber(m.dimensions)} dimensions · ${price}${m.isDefault ? " · offline, no key" : ""}`;
}

/**
 * The embedding model of a new knowledge base or memory store, from the server's list (`GET /v1/embedding-models`):
 * the default first; models of providers not configured here listed but not choosable, with what to set; or any
 * `openai-compatible/<id>` served at `OPENAI_COMPATIBLE_BASE_URL`.
 */
export function EmbeddingModelPicker({
  value,
  onChange,
  id,
}: {
  value: EmbeddingModelDraft;
  onChange(value: EmbeddingModelDraft): void;
  id: string;
}) {
  const models = useEmbeddingModels();
  const list = [...(models.data ?? [])].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  const fallback = list.find((m) => m.isDefault)?.id ?? "";
  const choice = value.choice || fallback;
  const chosen = list.find((m) => m.id === choice);
  const set = (patch: Partial<EmbeddingModelDraft>) => onChange({ ...value, choice, ...patch });
  const unavailable = list.filter((m) => !m.available);
  return (
    <div className="embedding-picker">
      <select id={id} value={choice} onChange={(e) => set({ choice: e.target.value, dimensions: "" })}>
        {list.map((m) => (
          <option key={m.id} value={m.id} disabled={!m.available}>
            {m.id}
            {m.isDefault ? " (default)" : ""}
            {m.available ? "" : " (not configured here)"}
          </option>
        ))}
        <option value={OTHER}>Another model (openai-compatible/…)…</option>
      </select>
      {choice === OTHER && (
        <label className="picker-part">
          Embedding model id
          <input
            placeholder="openai-compatible/nomic-embed-text"
            value={value.otherId}
            onChange={(e) => set({ otherId: e.target.value })}
          />
        </label>
      )}
      {chosen?.shortenable && (
        <label className="picker-part">
          Dimensions (shorter vectors)
          <input
            inputMode="numeric"
            placeholder={`optional, ≤ ${chosen.dimensions}`}
            value={value.dimensions}
            onChange={(e) => set({ dimensions: e.target.value })}
          />
        </label>
      )}
      {chosen && <span className="muted small">{describeEmbeddingModel(chosen)}</span>}
      {unavailable.length > 0 && (
        <span className="muted small">
          Not configured here: {[...new Set(unavailable.map((m) => m.unavailableReason))].join("; ")}.
        </span>
      )}
    </div>
  );
}
