import type { Experiment, ExperimentResult } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useClient } from "../auth/session.js";
import { QueryState } from "../components/query-state.js";
import { formatPercent } from "../lib/format.js";

function signed(delta: number | null): string {
  if (delta === null) return "—";
  const points = (delta * 100).toFixed(1);
  return delta > 0 ? `+${points} pts` : `${points} pts`;
}

/** Compare with a baseline over the same dataset: deltas per scorer, then the cases, regressions first. */
export function Comparison({ experiment, results }: { experiment: Experiment; results: ExperimentResult[] }) {
  const client = useClient();
  const [baseline, setBaseline] = useState("");
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
  const byCase = new Map(results.map((r) => [r.caseId, r]));
  return (
    <section aria-labelledby="compare-heading">
      <h2 id="compare-heading">Compare with a baseline</h2>
      {others.length === 0 ? (
        <p className="muted">No other completed experiment over this dataset to compare with.</p>
      ) : (
        <>
          <label htmlFor="baseline">Baseline</label>{" "}
          <select id="baseline" value={baseline} onChange={(e) => setBaseline(e.target.value)}>
            <option value="">Choose an experiment…</option>
            {others.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name} ({formatPercent(e.totals?.passRate)})
              </option>
            ))}
          </select>
        </>
      )}
      {baseline && (
        <QueryState query={comparison}>
          {(c) => (
            <>
              <table className="list">
                <thead>
                  <tr>
                    <th scope="col">Metric</th>
                    <th scope="col">Baseline</th>
                    <th scope="col">This experiment</th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <td>Pass rate (every scorer)</td>
                    <td>{formatPercent(c.passRate.baseline)}</td>
                    <td>{formatPercent(c.passRate.experiment)}</td>
                    <td>{signed(c.passRate.delta)}</td>
                  </tr>
                  {c.scorers.map((s) => (
                    <tr key={s.type}>
                      <td>{s.type} pass rate</td>
                      <td>{formatPercent(s.passRate.baseline)}</td>
                      <td>{formatPercent(s.passRate.experiment)}</td>
                      <td>{signed(s.passRate.delta)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <h3>Cases that changed</h3>
              {c.regressions.length + c.improvements.length === 0 ? (
                <p className="muted">No case changed between pass and fail.</p>
              ) : (
                <ul aria-label="Changed cases">
                  {[
                    ...c.regressions.map((r) => ({ ...r, kind: "regression" })),
                    ...c.improvements.map((r) => ({ ...r, kind: "improvement" })),
                  ].map((r) => (
                    <li key={r.caseId}>
                      <span className={`badge ${r.kind === "regression" ? "fail" : "pass"}`}>{r.kind}</span> case{" "}
                      {r.position}: {byCase.get(r.caseId)?.input.slice(0, 120) ?? r.caseId}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </QueryState>
      )}
    </section>
  );
}
