import type { ExperimentResult } from "@agent-platform/sdk";
import { useState } from "react";
import { Link } from "react-router";
import { LongText } from "../components/long-text.js";
import { formatNumber } from "../lib/format.js";

export function failed(result: ExperimentResult): boolean {
  return result.status === "error" || result.scores.some((s) => !s.passed);
}

/** Every case with its input, expected answer, output, each scorer's verdict and error; filterable to failures. */
export function ResultsTable({ results, scorers }: { results: ExperimentResult[]; scorers: string[] }) {
  const [onlyFailures, setOnlyFailures] = useState(false);
  const shown = onlyFailures ? results.filter(failed) : results;
  const failures = results.filter(failed).length;
  return (
    <>
      <div className="filters">
        <label className="inline">
          <input type="checkbox" checked={onlyFailures} onChange={(e) => setOnlyFailures(e.target.checked)} /> Failures
          only ({failures} of {results.length})
        </label>
      </div>
      {results.length === 0 ? (
        <p className="muted">No case has finished yet.</p>
      ) : (
        <table className="list results" aria-label="Case results">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Input</th>
              <th scope="col">Expected</th>
              <th scope="col">Output</th>
              {scorers.map((s) => (
                <th scope="col" key={s}>
                  {s}
                </th>
              ))}
              <th scope="col">Latency</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.caseId} className={failed(r) ? "failed-case" : undefined}>
                <td>
                  {r.position}
                  {r.sessionId && (
                    <>
                      {" "}
                      <Link to={`/sessions/${r.sessionId}`} aria-label={`Session of case ${r.position}`}>
                        session
                      </Link>
                    </>
                  )}
                </td>
                <td>
                  <LongText text={r.input} />
                </td>
                <td>{r.expected === null ? <span className="muted">—</span> : <LongText text={r.expected} />}</td>
                <td>
                  {r.output !== null && <LongText text={r.output} />}
                  {r.error && <p className="error">Error: {r.error}</p>}
                </td>
                {scorers.map((type) => {
                  const score = r.scores.find((s) => s.type === type);
                  return (
                    <td key={type}>
                      {score ? (
                        <span className={`badge ${score.passed ? "pass" : "fail"}`} title={score.reason ?? undefined}>
                          {score.passed ? "pass" : "fail"} {score.score.toFixed(2)}
                        </span>
                      ) : (
                        <span className="muted">—</span>
                      )}
                      {score?.reason && !score.passed && <div className="muted small">{score.reason}</div>}
                    </td>
                  );
                })}
                <td>{r.latencyMs === null ? "—" : `${formatNumber(r.latencyMs)} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
