import type { ReactNode } from "react";
import { ACTIONS, CHECKS, checkSummary, STAGES } from "../../guardrails/describe.js";
import {
  actionAllowed,
  type GuardrailDraft,
  guardrailOf,
  keepOriginalAllowed,
  newGuardrailDraft,
} from "./guardrail-draft.js";
import { type ControlProps, checkSettings, Setting } from "./guardrail-settings.js";

type Errors = Map<string, string[]>;

/**
 * The agent's guardrails without JSON: per guardrail its stage, its check with the check's settings, its action and,
 * where the contract allows it, whether the log keeps the original. The API's field errors show under the setting they
 * name (`errors`: by guardrail, then by path within it); those of no setting shown here, under the guardrail.
 */
export function GuardrailsEditor({
  guardrails,
  errors,
  onChange,
}: {
  guardrails: GuardrailDraft[];
  errors: Map<number, Errors>;
  onChange(guardrails: GuardrailDraft[]): void;
}) {
  const set = (index: number, patch: Partial<GuardrailDraft>) =>
    onChange(guardrails.map((g, i) => (i === index ? { ...g, ...patch } : g)));
  return (
    <div className="rows-editor">
      {guardrails.length === 0 && (
        <span className="muted small">
          None: nothing checks what goes into this agent's model or comes out of it (docs: guardrails).
        </span>
      )}
      {guardrails.map((guardrail, index) => (
        <GuardrailRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; a key that changes would lose focus
          key={index}
          index={index}
          draft={guardrail}
          errors={errors.get(index) ?? new Map()}
          onChange={(patch) => set(index, patch)}
          onRemove={() => onChange(guardrails.filter((_, i) => i !== index))}
          onMoveUp={
            index > 0
              ? () =>
                  onChange(
                    guardrails.map((g, i) => (i === index - 1 ? guardrail : i === index ? guardrails[index - 1]! : g)),
                  )
              : undefined
          }
        />
      ))}
      <div>
        <button type="button" onClick={() => onChange([...guardrails, newGuardrailDraft()])}>
          Add guardrail
        </button>
      </div>
    </div>
  );
}

function GuardrailRow({
  index,
  draft,
  errors,
  onChange,
  onRemove,
  onMoveUp,
}: {
  index: number;
  draft: GuardrailDraft;
  errors: Errors;
  onChange(patch: Partial<GuardrailDraft>): void;
  onRemove(): void;
  onMoveUp: (() => void) | undefined;
}) {
  const name = `Guardrail ${index + 1}`;
  const id = `guardrail-${index}`;
  const shown = new Set<string>();
  /** The errors of a path (and of the paths under it), marked as shown. */
  const errorsAt = (path: string) => {
    const found: string[] = [];
    for (const [key, messages] of errors) {
      if (key === path || key.startsWith(`${path}.`)) {
        shown.add(key);
        found.push(...messages.map((m) => (key === path ? m : `${key.slice(path.length + 1)}: ${m}`)));
      }
    }
    return found;
  };
  const setting = (label: string, path: string, control: (props: ControlProps) => ReactNode, wide = false) => (
    <Setting label={`${name} ${label}`} shownLabel={label} id={`${id}-${path}`} errors={errorsAt(path)} wide={wide}>
      {control}
    </Setting>
  );
  const fields = (
    <>
      <div className="guardrail-fields">
        {setting("stage", "stage", (props) => (
          <select
            {...props}
            value={draft.stage}
            onChange={(e) => onChange({ stage: e.target.value as GuardrailDraft["stage"] })}
          >
            {STAGES.map((stage) => (
              <option key={stage.value} value={stage.value}>
                {stage.label}
              </option>
            ))}
          </select>
        ))}
        {setting("check", "check.type", (props) => (
          <select
            {...props}
            value={draft.type}
            onChange={(e) => {
              const type = e.target.value as GuardrailDraft["type"];
              onChange({ type, ...(actionAllowed(type, draft.action) ? {} : { action: "flag" as const }) });
            }}
          >
            {CHECKS.map((check) => (
              <option key={check.value} value={check.value}>
                {check.label}
              </option>
            ))}
          </select>
        ))}
        {setting("action", "action", (props) => (
          <select
            {...props}
            value={draft.action}
            onChange={(e) => onChange({ action: e.target.value as GuardrailDraft["action"] })}
          >
            {ACTIONS.map((action) => (
              <option key={action.value} value={action.value} disabled={!actionAllowed(draft.type, action.value)}>
                {action.label}
                {actionAllowed(draft.type, action.value) ? "" : " (this check finds no spans)"}
              </option>
            ))}
          </select>
        ))}
        {setting("name", "name", (props) => (
          <input
            {...props}
            placeholder={`${draft.stage}.${draft.type}`}
            value={draft.name}
            onChange={(e) => onChange({ name: e.target.value })}
          />
        ))}
      </div>
      {checkSettings({ draft, name, setting, errorsAt, onChange })}
      {keepOriginalAllowed(draft) && (
        <label className="inline small">
          <input
            type="checkbox"
            checked={draft.keepOriginal}
            onChange={(e) => onChange({ keepOriginal: e.target.checked })}
          />{" "}
          Keep the message as sent in the log (only the model is sent the redacted text)
        </label>
      )}
    </>
  );
  const rest = [...errors]
    .filter(([key]) => !shown.has(key))
    .flatMap(([key, messages]) => messages.map((m) => (key ? `${key}: ${m}` : m)));
  return (
    <fieldset className="group guardrail-editor" aria-describedby={rest.length ? `${id}-errors` : undefined}>
      <legend>
        {name}: <span className="muted">{safeSummary(draft)}</span>
      </legend>
      {fields}
      {rest.length > 0 && (
        <span id={`${id}-errors`} className="field-error" role="alert">
          {rest.join("; ")}
        </span>
      )}
      <div className="editor-row">
        {onMoveUp && (
          <button type="button" onClick={onMoveUp}>
            Move up
          </button>
        )}
        <button type="button" aria-label={`Remove guardrail ${index + 1}`} onClick={onRemove}>
          Remove guardrail
        </button>
      </div>
    </fieldset>
  );
}

/** The legend's summary of what the row will send (a half-typed row may not summarise: then its check type). */
function safeSummary(draft: GuardrailDraft): string {
  try {
    return `${draft.action} on ${draft.stage} when ${checkSummary(guardrailOf(draft).check)}`;
  } catch {
    return draft.type;
  }
}
