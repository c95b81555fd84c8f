import type { CatalogueModel } from "@agent-platform/sdk";
import { useState } from "react";
import type { FieldProps } from "../../components/field.js";
import { useModels } from "../../lib/catalogue.js";
import { formatNumber } from "../../lib/format.js";
import type { ModelDraft } from "./draft.js";

const OTHER = "__other__";

const price = (m: CatalogueModel) =>
  m.pricing ? `$${m.pricing.input}/$${m.pricing.output} per M tokens` : "price unknown";

/**
 * The model from the server's catalogue (grouped by provider; those whose provider is not set up here are listed but
 * cannot be chosen, with what to configure), or any other `<provider>/<model-id>`; and the settings of the object form.
 */
export function ModelPicker({
  value,
  onChange,
  fieldProps,
}: {
  value: ModelDraft;
  onChange(value: ModelDraft): void;
  fieldProps: FieldProps;
}) {
  const models = useModels();
  const list = models.data ?? [];
  const known = list.find((m) => m.id === value.id);
  const [other, setOther] = useState(false);
  const showOther = other || (models.isSuccess && !known && value.id !== "");
  const [advanced, setAdvanced] = useState(
    Boolean(value.temperature || value.maxOutputTokens || value.effort || value.contextWindow),
  );
  const providers = [...new Set(list.map((m) => m.provider))];
  const set = (patch: Partial<ModelDraft>) => onChange({ ...value, ...patch });
  return (
    <div>
      <select
        {...fieldProps}
        value={showOther ? OTHER : value.id}
        onChange={(e) => {
          if (e.target.value === OTHER) setOther(true);
          else {
            setOther(false);
            set({ id: e.target.value });
          }
        }}
      >
        {providers.map((provider) => (
          <optgroup key={provider} label={provider}>
            {list
              .filter((m) => m.provider === provider)
              .map((m) => (
                <option key={m.id} value={m.id} disabled={!m.available}>
                  {m.id}
                  {m.available ? "" : " (not configured here)"}
                </option>
              ))}
          </optgroup>
        ))}
        <option value={OTHER}>Another model…</option>
      </select>
      {showOther && (
        <input
          aria-label="Model id"
          className="top-gap"
          placeholder="openai-compatible/llama-3.1-70b"
          value={value.id}
          onChange={(e) => set({ id: e.target.value })}
        />
      )}
      {known && (
        <span className="muted hint">
          {known.contextWindow ? `${formatNumber(known.contextWindow)}-token window · ` : ""}
          {price(known)}
          {known.capabilities.reasoning ? " · can reason" : ""}
          {known.capabilities.images ? " · sees images" : ""}
        </span>
      )}
      {list.some((m) => !m.available) && (
        <span className="muted hint">
          Greyed out: {[...new Set(list.filter((m) => !m.available).map((m) => m.unavailableReason))].join("; ")}.
        </span>
      )}
      <button type="button" className="link small" aria-expanded={advanced} onClick={() => setAdvanced(!advanced)}>
        {advanced ? "Hide model settings" : "Model settings"}
      </button>
      {advanced && (
        <div className="inline-form">
          <label>
            Temperature
            <input
              value={value.temperature}
              inputMode="decimal"
              placeholder="default"
              onChange={(e) => set({ temperature: e.target.value })}
            />
          </label>
          <label>
            Max output tokens
            <input
              value={value.maxOutputTokens}
              inputMode="numeric"
              placeholder="default"
              onChange={(e) => set({ maxOutputTokens: e.target.value })}
            />
          </label>
          {(known?.capabilities.reasoning || value.effort) && (
            <label>
              Reasoning effort
              <select value={value.effort} onChange={(e) => set({ effort: e.target.value as ModelDraft["effort"] })}>
                <option value="">off</option>
                <option value="low">low</option>
                <option value="medium">medium</option>
                <option value="high">high</option>
              </select>
            </label>
          )}
          {!known && (
            <label>
              Context window (tokens)
              <input
                value={value.contextWindow}
                inputMode="numeric"
                placeholder="unknown"
                onChange={(e) => set({ contextWindow: e.target.value })}
              />
            </label>
          )}
        </div>
      )}
    </div>
  );
}
