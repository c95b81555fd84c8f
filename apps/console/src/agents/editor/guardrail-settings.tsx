import type { ReactNode } from "react";
import { kindLabel, PII_KINDS } from "../../guardrails/describe.js";
import { useModels } from "../../lib/catalogue.js";
import type { GuardrailDraft, PatternDraft } from "./guardrail-draft.js";

// The settings of a guardrail's check, as fields of the guardrail's row in the agent editor (guardrails-editor.tsx).

export type ControlProps = { id: string; "aria-label": string; "aria-invalid"?: true; "aria-describedby"?: string };
export type SettingFn = (
  label: string,
  path: string,
  control: (props: ControlProps) => ReactNode,
  wide?: boolean,
) => ReactNode;

/** One setting: its visible label, its control (named for screen readers with the guardrail's number) and its errors. */
export function Setting({
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
export function checkSettings({
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
