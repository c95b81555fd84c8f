import type { Experiment, ExperimentResult } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearchParams } from "react-router";
import { useClient } from "../auth/session.js";
import { BarChart } from "../components/bar-chart.js";
import { Card } from "../components/card.js";
import { PageHeading } from "../components/page-heading.js";
import { QueryState } from "../components/query-state.js";
import { formatNumber, formatPercent, formatTime, formatUsd } from "../lib/format.js";
import { Comparison } from "./comparison.js";
import { ResultsTable } from "./results-table.js";
import { statusClass } from "./status.js";

const finished = (e: Experiment) => e.status === "completed" || e.status === "failed";

export default function ExperimentPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const experiment = useQuery({
    queryKey: ["experiment", id],
    queryFn: () => client.experiments.get(id),
    refetchInterval: (query) => (query.state.data && finished(query.state.data) ? false : 2_000),
  });
  const [params, setParams] = useSearchParams();
  const baseline = params.get("baseline") ?? "";
  const setBaseline = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set("baseline", value);
    else next.delete("baseline");
    setParams(next, { replace: true });
  };
  const done = experiment.data?.progress.done;
  const results = useQuery({
    queryKey: ["experiment", id, "results", done],
    queryFn: async () => {
      const all: ExperimentResult[] = [];
      for await (const result of client.experiments.results(id, { limit: 100 })) all.push(result);
      return all;
    },
    enabled: experiment.data !== undefined,
    placeholderData: (previous) => previous,
  });
  const baselineResults = useQuery({
    queryKey: ["experiment", baseline, "results", "all"],
    queryFn: async () => {
      const all = new Map<string, ExperimentResult>();
      for await (const result of client.experiments.results(baseline, { limit: 100 })) all.set(result.caseId, result);
      return all;
    },
    enabled: baseline !== "",
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <QueryState query={experiment}>
      {(e) => (
        <>
          <header className="page-header">
            <PageHeading title={e.name} />
            <span className={`badge ${statusClass(e.status)}`}>{e.status}</span>
            <span className="spacer" />
            <Link
              to={`/experiments/new?dataset=${e.datasetId}${e.task.type === "agent" ? `&agent=${e.task.agentId}` : ""}`}
              className="button-link"
            >
              New experiment on this dataset
            </Link>
          </header>
          <p className="muted">
            {e.task.type === "agent" ? (
              <>
                Agent <Link to={`/agents/${e.task.agentId}`}>{e.task.agentId}</Link> version {e.task.agentVersion}
              </>
            ) : (
              <>
                Model <code>{e.task.model}</code>
              </>
            )}{" "}
            · dataset <Link to={`/datasets/${e.datasetId}`}>{e.datasetId}</Link> · scorers{" "}
            {e.scorers.map((s) => s.type).join(", ")} · created {formatTime(e.createdAt)}
          </p>
          {e.error && (
            <p className="error" role="alert">
              {e.error}
            </p>
          )}
          {!finished(e) && <Progress experiment={e} finishedCases={results.data?.length ?? 0} />}
          {e.totals && <Totals totals={e.totals} />}
          {e.status === "completed" && <Comparison experiment={e} baseline={baseline} onBaseline={setBaseline} />}
          <section aria-labelledby="cases-heading">
            <h2 id="cases-heading">Cases</h2>
            <QueryState query={results}>
              {(rows) => (
                <ResultsTable
                  results={rows}
                  scorers={e.scorers.map((s) => s.type)}
                  baseline={baseline ? baselineResults.data : undefined}
                />
              )}
            </QueryState>
          </section>
        </>
      )}
    </QueryState>
  );
}

/** Cases done: the experiment's count, or the table's when the table was read after it (never one behind). */
function Progress({ experiment, finishedCases }: { experiment: Experiment; finishedCases: number }) {
  const { total, errored } = experiment.progress;
  const done = Math.max(experiment.progress.done, finishedCases);
  return (
    <div className="progress-block">
      <label htmlFor="experiment-progress">
        {done} of {total} cases done{errored ? `, ${errored} errored` : ""}
      </label>
      <progress id="experiment-progress" max={Math.max(total, 1)} value={done} />
    </div>
  );
}

function Totals({ totals }: { totals: NonNullable<Experiment["totals"]> }) {
  return (
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading">Totals</h2>
      <div className="cards">
        <Card label="Pass rate (every scorer)" value={formatPercent(totals.passRate)} />
        <Card label="Cases" value={`${totals.completed} completed · ${totals.errored} errored`} />
        <Card
          label="Latency p50 / p95"
          value={`${formatNumber(totals.latencyMs.p50)} / ${formatNumber(totals.latencyMs.p95)} ms`}
        />
        <Card
          label="Tokens (task · judges)"
          value={`${formatNumber(totals.usage.inputTokens + totals.usage.outputTokens)} · ${formatNumber(
            totals.judgeUsage.inputTokens + totals.judgeUsage.outputTokens,
          )}`}
        />
        <Card
          label="Estimated cost"
          value={totals.estimatedCostUsd === null ? "unknown price" : formatUsd(totals.estimatedCostUsd)}
        />
      </div>
      <div className="cards">
        <BarChart
          title="Pass rate per scorer"
          max={1}
          bars={totals.scorers.map((s) => ({ label: s.type, value: s.passRate }))}
          format={formatPercent}
        />
        <BarChart
          title="Latency (ms)"
          bars={[
            { label: "p50", value: totals.latencyMs.p50 },
            { label: "p95", value: totals.latencyMs.p95 },
          ]}
          format={(v) => `${formatNumber(v)} ms`}
        />
        <BarChart
          title="Tokens"
          bars={[
            { label: "task input", value: totals.usage.inputTokens },
            { label: "task output", value: totals.usage.outputTokens },
            { label: "judge input", value: totals.judgeUsage.inputTokens },
            { label: "judge output", value: totals.judgeUsage.outputTokens },
          ]}
          format={(v) => formatNumber(v)}
        />
      </div>
    </section>
  );
}
