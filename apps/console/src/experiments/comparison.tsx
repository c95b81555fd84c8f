import type { CaseComparison, Experiment, ExperimentComparison } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useClient } from "../auth/session.js";
import { LongText } from "../components/long-text.js";
import { QueryState } from "../components/query-state.js";
import { WordDiff } from "../components/text-diff.js";
import { formatPercent, plural } from "../lib/format.js";

function signed(delta: number | null): string {
  if (delta === null) return "—";
  const points = (delta * 100).toFixed(1);
  return delta > 0 ? `+${points} pts` : `${points} pts`;
}

/**
 * Compare with a baseline over the same dataset, the way Braintrust and LangSmith do: per scorer the change of pass
 * rate and how many cases it regressed or improved, then every case whose verdict changed on any scorer — regressions
 * first — with each scorer's verdict on both sides and both outputs side by side (and word by word on request).
 * The baseline is part of the page's URL (`?baseline=`), so a comparison can be shared.
 */
export function Comparison({
  experiment,
  baseline,
  onBaseline,
}: {
  experiment: Experiment;
  baseline: string;
  onBaseline(id: string): void;
}) {
  const client = useClient();
  const candidates = useQuery({
    queryKey: ["experiments", "dataset", experiment.datasetId],
    queryFn: () => client.experiments.list({ datasetId: experiment.datasetId, limit: 100 }),
  });
  const comparison = useQuery({
    queryKey: ["experiment", experiment.id, "compare", baseline],
    queryFn: () => client.experiments.compare(experiment.id, { baseline }),
    enabled: baseline !== "",
  });
  const others = (candidates.data?.data ?? []).filter((e) => e.id !== experiment.id && e.status === "completed");
  return (
    <section aria-labelledby="compare-heading">
      <h2 id="compare-heading">Compare with a baseline</h2>
      {others.length === 0 && !baseline ? (
        <p className="muted">No other completed experiment over this dataset to compare with.</p>
      ) : (
        <div className="filters">
          <label>
            Baseline
            <select id="baseline" value={baseline} onChange={(e) => onBaseline(e.target.value)}>
              <option value="">Choose an experiment…</option>
              {others.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} ({formatPercent(e.totals?.passRate)})
                </option>
              ))}
              {baseline && !others.some((e) => e.id === baseline) && <option value={baseline}>{baseline}</option>}
            </select>
          </label>
        </div>
      )}
      {baseline && <QueryState query={comparison}>{(c) => <ComparisonView comparison={c} />}</QueryState>}
    </section>
  );
}

function ComparisonView({ comparison: c }: { comparison: ExperimentComparison }) {
  return (
    <>
      <div className="table-wrap">
        <table className="list" aria-label="Change per scorer">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Baseline</th>
              <th scope="col">This experiment</th>
              <th scope="col">Change</th>
              <th scope="col">Regressed</th>
              <th scope="col">Improved</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Pass rate (every scorer)</td>
              <td>{formatPercent(c.passRate.baseline)}</td>
              <td>{formatPercent(c.passRate.experiment)}</td>
              <td>{signed(c.passRate.delta)}</td>
              <td>{plural(c.regressions.length, "case")}</td>
              <td>{plural(c.improvements.length, "case")}</td>
            </tr>
            {c.scorers.map((s) => (
              <tr key={s.type}>
                <td>{s.type} pass rate</td>
                <td>{formatPercent(s.passRate.baseline)}</td>
                <td>{formatPercent(s.passRate.experiment)}</td>
                <td>{signed(s.passRate.delta)}</td>
                <td>{s.regressions}</td>
                <td>{s.improvements}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Cases that changed, regressions first</h3>
      {c.cases.length === 0 ? (
        <p className="muted">No case changed between pass and fail on any scorer.</p>
      ) : (
        <ol className="plain" aria-label="Changed cases">
          {c.cases.map((item) => (
            <ChangedCase key={item.caseId} item={item} />
          ))}
        </ol>
      )}
    </>
  );
}

function verdict(v: CaseComparison["scorers"][number]["experiment"]): string {
  return v === null ? "no score" : `${v.passed ? "pass" : "fail"} ${v.score.toFixed(2)}`;
}

function ChangedCase({ item }: { item: CaseComparison }) {
  const [diff, setDiff] = useState(false);
  const before = item.baseline.output ?? "";
  const after = item.experiment.output ?? "";
  return (
    <li className={`changed-case ${item.change}`} aria-label={`case ${item.position}, ${item.change}`}>
      <header className="page-header">
        <span className={`badge ${item.change}`}>{item.change}</span>
        <strong>case {item.position}</strong>
        <span className="muted small">{item.input.length > 160 ? `${item.input.slice(0, 160)}…` : item.input}</span>
      </header>
      <ul className="small scorer-changes">
        {item.scorers.map((s) => (
          <li key={s.type}>
            <code>{s.type}</code>: {verdict(s.baseline)} →{" "}
            <span className={`badge ${s.change}`}>{verdict(s.experiment)}</span>
            {s.delta !== null && s.delta !== 0 ? ` (${s.delta > 0 ? "+" : ""}${s.delta.toFixed(2)})` : ""}
          </li>
        ))}
      </ul>
      {item.expected !== null && (
        <p className="small">
          Expected: <code>{item.expected.length > 300 ? `${item.expected.slice(0, 300)}…` : item.expected}</code>
        </p>
      )}
      <div className="side-by-side">
        <div>
          <h4>
            Baseline output
            {item.baseline.sessionId && (
              <>
                {" "}
                · <Link to={`/sessions/${item.baseline.sessionId}`}>session</Link>
              </>
            )}
          </h4>
          {item.baseline.error ? <p className="error">Error: {item.baseline.error}</p> : <LongText text={before} />}
        </div>
        <div>
          <h4>
            This experiment's output
            {item.experiment.sessionId && (
              <>
                {" "}
                · <Link to={`/sessions/${item.experiment.sessionId}`}>session</Link>
              </>
            )}
          </h4>
          {item.experiment.error ? <p className="error">Error: {item.experiment.error}</p> : <LongText text={after} />}
        </div>
      </div>
      {before && after && (
        <button type="button" className="link small" aria-expanded={diff} onClick={() => setDiff(!diff)}>
          {diff ? "Hide the word diff" : "Show what changed, word by word"}
        </button>
      )}
      {diff && <WordDiff before={before} after={after} />}
    </li>
  );
}
