import { isApiError } from "@agent-platform/sdk";
import { fieldErrors } from "../components/field-errors.js";
import { FieldMessages } from "../components/field-messages.js";
import { type EmbeddingModelDraft, EmbeddingModelPicker } from "./embedding-model-picker.js";

export interface ResourceFieldsDraft {
  name: string;
  description: string;
  model: EmbeddingModelDraft;
}

export const RESOURCE_FIELDS = ["name", "description", "embeddingModel"];

/** Whether the form's error is one `ResourceFields` shows under a field (so the form does not show it again). */
export function shownByResourceFields(error: unknown): boolean {
  return isApiError(error, "embedding.invalid_model");
}

/**
 * The fields a new knowledge base and a new memory store share: name, description and embedding model, with the API's
 * field errors of the create call (`error`) under each (`embedding.invalid_model` under the model).
 */
export function ResourceFields({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: ResourceFieldsDraft;
  onChange(value: ResourceFieldsDraft): void;
  error: unknown;
}) {
  const byField = fieldErrors(error, RESOURCE_FIELDS).byField;
  const errors = {
    name: byField.get("name"),
    description: byField.get("description"),
    embeddingModel: [
      ...(byField.get("embeddingModel") ?? []),
      ...(shownByResourceFields(error) ? [(error as Error).message] : []),
    ],
  };
  return (
    <>
      <label>
        Name
        <input
          value={value.name}
          maxLength={200}
          required
          onChange={(e) => onChange({ ...value, name: e.target.value })}
        />
        <FieldMessages messages={errors.name} />
      </label>
      <label className="grow">
        Description (optional)
        <input
          value={value.description}
          maxLength={2000}
          onChange={(e) => onChange({ ...value, description: e.target.value })}
        />
        <FieldMessages messages={errors.description} />
      </label>
      <div className="label-like">
        <label htmlFor={`${id}-embedding`}>Embedding model</label>
        <EmbeddingModelPicker
          id={`${id}-embedding`}
          value={value.model}
          onChange={(model) => onChange({ ...value, model })}
        />
        <FieldMessages messages={errors.embeddingModel} />
      </div>
    </>
  );
}
