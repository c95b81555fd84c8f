import type { ReactNode } from "react";
import { ACTIONS, CHECKS, checkSummary, kindLabel, PII_KINDS, STAGES } from "../../guardrails/describe.js";
import { useModels } from "../../lib/catalogue.js";
import {
  actionAllowed,
  type GuardrailDraft,
  guardrailOf,
  keepOriginalAllowed,
  newGuardrailDraft,
  type PatternDraft,
} from "./guardrail-draft.js";

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

type ControlProps = { id: string; "aria-label": string; "aria-invalid"?: true; "aria-describedby"?: string };
type SettingFn = (
  label: string,
  path: string,
  control: (props: ControlProps) => ReactNode,
  wide?: boolean,
) => ReactNode;

/** One setting: its visible label, its control (named for screen readers with the guardrail's number) and its errors. */
function Setting({
  label,
  shownLabel,
  id,
  errors,
  wide,
  children,
}: {
  label: string;
  shownLabel: string;
  id: string;
  errors: string[];
  wide: boolean;
  children(props: ControlProps): ReactNode;
}) {
  const errorId = `${id}-errors`.replace(/\./g, "-");
  const controlId = id.replace(/\./g, "-");
  return (
    <div className={wide ? "setting wide" : "setting"}>
      <label htmlFor={controlId} className="small muted">
        {shownLabel}
      </label>
      {children({
        id: controlId,
        "aria-label": label,
        ...(errors.length ? { "aria-invalid": true as const, "aria-describedby": errorId } : {}),
      })}
      {errors.length > 0 && (
        <span id={errorId} className="field-error" role="alert">
          {errors.join("; ")}
        </span>
      )}
    </div>
  );
}

/** A plain function, not a component: it runs inside the row's render, so the errors it shows count as shown. */
function checkSettings({
  draft,
  name,
  setting,
  errorsAt,
  onChange,
}: {
  draft: GuardrailDraft;
  name: string;
  setting: SettingFn;
  errorsAt(path: string): string[];
  onChange(patch: Partial<GuardrailDraft>): void;
}) {
  const text = (label: string, path: string, key: keyof GuardrailDraft, placeholder = "", wide = false) =>
    setting(
      label,
      path,
      (props) => (
        <input
          {...props}
          placeholder={placeholder}
          value={draft[key] as string}
          onChange={(e) => onChange({ [key]: e.target.value })}
        />
      ),
      wide,
    );
  switch (draft.type) {
    case "pii":
      return (
        <>
          <fieldset className="choices-inline" aria-label={`${name} kinds`}>
            <legend className="small muted">Kinds (none ticked: every kind)</legend>
            {PII_KINDS.map((kind) => (
              <label key={kind} className="inline small">
                <input
                  type="checkbox"
                  checked={draft.kinds.includes(kind)}
                  onChange={(e) =>
                    onChange({
                      kinds: e.target.checked ? [...draft.kinds, kind] : draft.kinds.filter((k) => k !== kind),
                    })
                  }
                />{" "}
                {kindLabel(kind)}
              </label>
            ))}
            {errorsAt("check.kinds").map((m) => (
              <span key={m} className="field-error" role="alert">
                {m}
              </span>
            ))}
          </fieldset>
          {patternsEditor({ name, patterns: draft.patterns, errorsAt, onChange: (patterns) => onChange({ patterns }) })}
          <div className="guardrail-fields">
            {text("phone region", "check.phoneRegion", "phoneRegion", "e.g. US: national formats count too")}
          </div>
        </>
      );
    case "secrets":
      return (
        <label className="inline small">
          <input type="checkbox" checked={draft.entropy} onChange={(e) => onChange({ entropy: e.target.checked })} />{" "}
          Also random-looking tokens (high entropy), not only known key shapes
        </label>
      );
    case "prompt_injection":
      return <div className="guardrail-fields">{text("threshold (score)", "check.threshold", "threshold", "3")}</div>;
    case "length":
      return (
        <div className="guardrail-fields">{text("most characters", "check.maxChars", "maxChars", "e.g. 4000")}</div>
      );
    case "language":
      return (
        <div className="guardrail-fields">
          {text("allowed languages (ISO 639-3)", "check.allow", "allow", "eng, fra, deu")}
          {text("judged from characters", "check.minChars", "minChars", "40")}
        </div>
      );
    case "moderation":
      return (
        <div className="guardrail-fields">
          {text("moderation model", "check.model", "model", "omni-moderation-latest")}
          {text("categories", "check.categories", "categories", "every category")}
          {text("threshold (0–1)", "check.threshold", "threshold", "the provider's own decision")}
        </div>
      );
    case "llm_judge":
      return (
        <>
          {setting(
            "rubric",
            "check.rubric",
            (props) => (
              <textarea
                {...props}
                rows={3}
                value={draft.rubric}
                onChange={(e) => onChange({ rubric: e.target.value })}
              />
            ),
            true,
          )}
          <div className="guardrail-fields">
            {setting("judge model", "check.model", (props) => (
              <JudgeModel props={props} value={draft.model} onChange={(model) => onChange({ model })} />
            ))}
            {text("passes from (0–1)", "check.threshold", "threshold", "0.5")}
          </div>
        </>
      );
  }
}

function JudgeModel({ props, value, onChange }: { props: ControlProps; value: string; onChange(model: string): void }) {
  const models = useModels();
  const known = (models.data ?? []).some((m) => m.id === value);
  return (
    <select {...props} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">the server's judge model, else the session's</option>
      {value && !known && <option value={value}>{value}</option>}
      {(models.data ?? []).map((m) => (
        <option key={m.id} value={m.id} disabled={!m.available}>
          {m.id}
          {m.available ? "" : " (not configured here)"}
        </option>
      ))}
    </select>
  );
}

function patternsEditor({
  name,
  patterns,
  errorsAt,
  onChange,
}: {
  name: string;
  patterns: PatternDraft[];
  errorsAt(path: string): string[];
  onChange(patterns: PatternDraft[]): void;
}) {
  const set = (index: number, patch: Partial<PatternDraft>) =>
    onChange(patterns.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  return (
    <div className="rows-editor">
      <span className="small muted">
        Patterns of your own (RE2: no lookaround or backreferences); a match's kind is its name
      </span>
      {patterns.map((pattern, index) => {
        const label = `${name} pattern ${index + 1}`;
        const path = `check.patterns.${index}`;
        const nameErrors = errorsAt(`${path}.name`);
        const patternErrors = [...errorsAt(`${path}.pattern`), ...errorsAt(`${path}.flags`)];
        const errorId = `${label.replace(/\s+/g, "-").toLowerCase()}-errors`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; a key that changes would lose focus
          <div key={index} className="pattern-row">
            <div className="editor-row">
              <input
                aria-label={`${label} name`}
                placeholder="name (e.g. order_id)"
                value={pattern.name}
                aria-invalid={nameErrors.length ? true : undefined}
                aria-describedby={nameErrors.length || patternErrors.length ? errorId : undefined}
                onChange={(e) => set(index, { name: e.target.value })}
              />
              <input
                aria-label={label}
                className="code"
                placeholder="pattern, e.g. \bORD-\d{6}\b"
                value={pattern.pattern}
                aria-invalid={patternErrors.length ? true : undefined}
                aria-describedby={nameErrors.length || patternErrors.length ? errorId : undefined}
                onChange={(e) => set(index, { pattern: e.target.value })}
              />
              <label className="inline small">
                <input
                  type="checkbox"
                  checked={pattern.ignoreCase}
                  onChange={(e) => set(index, { ignoreCase: e.target.checked })}
                />{" "}
                any case
              </label>
              <label className="inline small">
                <input
                  type="checkbox"
                  checked={pattern.dotAll}
                  onChange={(e) => set(index, { dotAll: e.target.checked })}
                />{" "}
                . matches newlines
              </label>
              <button
                type="button"
                aria-label={`Remove ${label}`}
                onClick={() => onChange(patterns.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </div>
            {(nameErrors.length > 0 || patternErrors.length > 0) && (
              <span id={errorId} className="field-error" role="alert">
                {[...nameErrors.map((m) => `name: ${m}`), ...patternErrors].join("; ")}
              </span>
            )}
          </div>
        );
      })}
      <div>
        <button
          type="button"
          onClick={() => onChange([...patterns, { name: "", pattern: "", ignoreCase: false, dotAll: false }])}
        >
          Add pattern
        </button>
      </div>
    </div>
  );
}
