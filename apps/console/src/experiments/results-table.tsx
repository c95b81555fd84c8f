import type { ExperimentResult } from "@agent-platform/sdk";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { LongText } from "../components/long-text.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { formatNumber } from "../lib/format.js";

export function failed(result: ExperimentResult): boolean {
  return result.status === "error" || result.scores.some((s) => !s.passed);
}

type Sort = "position" | "failing" | "changed" | "latency" | `score:${string}`;

/**
 * Every case with its input, expected answer, output (and the baseline's, when comparing), each scorer's verdict and
 * error: searchable, sortable (failing first, changed from the baseline first, slowest first, lowest score first) and
 * filterable to failures.
 */
export function ResultsTable({
  results,
  scorers,
  baseline,
}: {
  results: ExperimentResult[];
  scorers: string[];
  /** The baseline's results by case, when a baseline is chosen. */
  baseline?: Map<string, ExperimentResult> | undefined;
}) {
  const [onlyFailures, setOnlyFailures] = useState(false);
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>("position");
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const rows = results.filter(
      (r) =>
        (!onlyFailures || failed(r)) &&
        (!needle ||
          `${r.input}\n${r.expected ?? ""}\n${r.output ?? ""}\n${r.error ?? ""}`.toLowerCase().includes(needle)),
    );
    const changed = (r: ExperimentResult) => {
      const before = baseline?.get(r.caseId);
      return before ? Number(failed(before) !== failed(r)) + Number(!failed(before) && failed(r)) : 0;
    };
    const key: (r: ExperimentResult) => number =
      sort === "failing"
        ? (r) => -Number(failed(r))
        : sort === "changed"
          ? (r) => -changed(r)
          : sort === "latency"
            ? (r) => -(r.latencyMs ?? -1)
            : sort.startsWith("score:")
              ? (r) => r.scores.find((s) => s.type === sort.slice(6))?.score ?? -1
              : () => 0;
    return [...rows].sort((a, b) => key(a) - key(b) || a.position - b.position);
  }, [results, onlyFailures, search, sort, baseline]);
  const failures = results.filter(failed).length;
  return (
    <>
      <div className="filters">
        <label>
          Search
          <input
            type="search"
            value={search}
            placeholder="text in input, expected or output"
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label>
          Sort
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            <option value="position">dataset order</option>
            <option value="failing">failing first</option>
            {baseline && <option value="changed">regressions first</option>}
            <option value="latency">slowest first</option>
            {scorers.map((s) => (
              <option key={s} value={`score:${s}`}>
                lowest {s} score first
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={onlyFailures} onChange={(e) => setOnlyFailures(e.target.checked)} /> Failures
          only ({failures} of {results.length})
        </label>
      </div>
      {results.length === 0 ? (
        <p className="muted">No case has finished yet.</p>
      ) : shown.length === 0 ? (
        <p className="muted">No case matches.</p>
      ) : (
        <div className="table-wrap">
          <table className="list results stack" aria-label="Case results">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Input</th>
                <th scope="col">Expected</th>
                <th scope="col">Output</th>
                {baseline && <th scope="col">Baseline output</th>}
                {scorers.map((s) => (
                  <th scope="col" key={s}>
                    {s}
                  </th>
                ))}
                <th scope="col">Latency</th>
              </tr>
            </thead>
            <VirtualTbody
              items={shown}
              columns={5 + scorers.length + (baseline ? 1 : 0)}
              keyOf={(r) => r.caseId}
              row={(r, props) => {
                const before = baseline?.get(r.caseId);
                return (
                  <tr key={r.caseId} className={failed(r) ? "failed-case" : undefined} {...props}>
                    <td data-label="#">
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
                    <td data-label="Input">
                      <LongText text={r.input} />
                    </td>
                    <td data-label="Expected">
                      {r.expected === null ? <span className="muted">—</span> : <LongText text={r.expected} />}
                    </td>
                    <td data-label="Output">
                      {r.output !== null && <LongText text={r.output} />}
                      {r.error && <p className="error">Error: {r.error}</p>}
                    </td>
                    {baseline && (
                      <td data-label="Baseline output">
                        {before?.output != null ? <LongText text={before.output} /> : <span className="muted">—</span>}
                        {before?.error && <p className="error">Error: {before.error}</p>}
                      </td>
                    )}
                    {scorers.map((type) => {
                      const score = r.scores.find((s) => s.type === type);
                      const was = before?.scores.find((s) => s.type === type);
                      return (
                        <td key={type} data-label={type}>
                          {score ? (
                            <span
                              className={`badge ${score.passed ? "pass" : "fail"}`}
                              title={score.reason ?? undefined}
                            >
                              {score.passed ? "pass" : "fail"} {score.score.toFixed(2)}
                            </span>
                          ) : (
                            <span className="muted">—</span>
                          )}
                          {was && score && was.passed !== score.passed && (
                            <div className="small">was {was.passed ? "pass" : "fail"}</div>
                          )}
                          {score?.reason && !score.passed && <div className="muted small">{score.reason}</div>}
                        </td>
                      );
                    })}
                    <td data-label="Latency">{r.latencyMs === null ? "—" : `${formatNumber(r.latencyMs)} ms`}</td>
                  </tr>
                );
              }}
            />
          </table>
        </div>
      )}
    </>
  );
}
