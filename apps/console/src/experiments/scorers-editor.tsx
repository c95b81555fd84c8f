import type { Scorer } from "@agent-platform/sdk";

type ScorerType = Scorer["type"];

/** Every scorer type, with what it does (the list is checked against the contract's union at compile time). */
const SCORERS = {
  exact_match: "the answer equals the case's expected answer",
  contains: "the answer contains a text",
  regex: "a pattern (RE2) matches the answer",
  not_empty: "the answer is not empty",
  json_valid: "the answer is valid JSON",
  llm_judge: "a model grades the answer against a rubric (passes at 0.5)",
  trajectory: "agent tasks: the tool calls match the case's expected ones",
  call_count: "the number of tool or model calls is within bounds",
  cost: "the case's estimated cost is at most a limit",
  latency: "the case took at most a time",
} satisfies Record<ScorerType, string>;

/** The scorers being chosen: a draft per type (`on` says it is chosen). */
export type ScorerDrafts = Partial<Record<ScorerType, { on: boolean; fields: Record<string, string> }>>;

/** The chosen scorers as the API takes them. Fields left empty take the API's defaults. */
export function scorersOf(drafts: ScorerDrafts): Scorer[] {
  const scorers: Scorer[] = [];
  for (const [type, draft] of Object.entries(drafts) as [
    ScorerType,
    { on: boolean; fields: Record<string, string> },
  ][]) {
    if (!draft?.on) continue;
    const f = draft.fields;
    const text = (key: string) => (f[key]?.trim() ? { [key]: f[key]!.trim() } : {});
    const num = (key: string) => (f[key]?.trim() ? { [key]: Number(f[key]) } : {});
    const bool = (key: string) => (f[key] === "true" ? { [key]: true } : f[key] === "false" ? { [key]: false } : {});
    const scorer = {
      exact_match: () => ({ type, ...bool("caseSensitive"), ...bool("trim") }),
      contains: () => ({ type, value: f.value ?? "", ...bool("caseSensitive") }),
      regex: () => ({ type, pattern: f.pattern ?? "", ...text("flags") }),
      not_empty: () => ({ type }),
      json_valid: () => ({ type }),
      llm_judge: () => ({ type, ...text("rubric"), ...text("model") }),
      trajectory: () => ({ type, ...text("mode") }),
      call_count: () => ({ type, of: f.of || "tool_calls", max: Number(f.max ?? 0), ...num("min") }),
      cost: () => ({ type, maxUsd: Number(f.maxUsd ?? 0) }),
      latency: () => ({ type, maxMs: Number(f.maxMs ?? 0) }),
    }[type]();
    scorers.push(scorer as Scorer);
  }
  return scorers;
}

/** A checkbox per scorer type and, once checked, its settings. */
export function ScorersEditor({
  drafts,
  onChange,
  describedBy,
}: {
  drafts: ScorerDrafts;
  onChange(drafts: ScorerDrafts): void;
  describedBy?: string | undefined;
}) {
  const set = (type: ScorerType, on: boolean, fields?: Record<string, string>) =>
    onChange({ ...drafts, [type]: { on, fields: fields ?? drafts[type]?.fields ?? {} } });
  const field = (type: ScorerType, key: string, label: string, placeholder = "") => (
    <label key={key}>
      {label}
      <input
        value={drafts[type]?.fields[key] ?? ""}
        placeholder={placeholder}
        onChange={(e) => set(type, true, { ...drafts[type]?.fields, [key]: e.target.value })}
      />
    </label>
  );
  const settings: Partial<Record<ScorerType, () => React.ReactNode>> = {
    contains: () => field("contains", "value", "Text to find"),
    regex: () => [field("regex", "pattern", "Pattern"), field("regex", "flags", "Flags", "i, m, s")],
    llm_judge: () => [
      field("llm_judge", "rubric", "Rubric", "correct and helpful"),
      field("llm_judge", "model", "Judge model", "the task's model"),
    ],
    trajectory: () => field("trajectory", "mode", "Mode", "in_order, exact or any_order"),
    call_count: () => [
      field("call_count", "of", "Count", "tool_calls or model_calls"),
      field("call_count", "max", "At most"),
      field("call_count", "min", "At least", "0"),
    ],
    cost: () => field("cost", "maxUsd", "At most (US $)"),
    latency: () => field("latency", "maxMs", "At most (ms)"),
  };
  return (
    <fieldset className="group" aria-describedby={describedBy}>
      <legend>Scorers (1 to 8)</legend>
      {(Object.entries(SCORERS) as [ScorerType, string][]).map(([type, what]) => (
        <div key={type} className="scorer-choice">
          <label className="inline">
            <input type="checkbox" checked={drafts[type]?.on ?? false} onChange={(e) => set(type, e.target.checked)} />{" "}
            <code>{type}</code> <span className="muted small">{what}</span>
          </label>
          {drafts[type]?.on && settings[type] && <div className="inline-form">{settings[type]!()}</div>}
        </div>
      ))}
    </fieldset>
  );
}
