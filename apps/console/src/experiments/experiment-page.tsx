import type { Experiment, ExperimentResult } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { BarChart } from "../components/bar-chart.js";
import { QueryState } from "../components/query-state.js";
import { formatNumber, formatPercent, formatTime, formatUsd } from "../lib/format.js";
import { Comparison } from "./comparison.js";
import { ResultsTable } from "./results-table.js";

const finished = (e: Experiment) => e.status === "completed" || e.status === "failed";

export default function ExperimentPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const experiment = useQuery({
    queryKey: ["experiment", id],
    queryFn: () => client.experiments.get(id),
    refetchInterval: (query) => (query.state.data && finished(query.state.data) ? false : 2_000),
  });
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
  return (
    <QueryState query={experiment}>
      {(e) => (
        <>
          <header className="page-header">
            <h1>{e.name}</h1>
            <span
              className={`badge ${e.status === "completed" ? "done" : e.status === "failed" ? "failed" : "running"}`}
            >
              {e.status}
            </span>
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
            · dataset <code>{e.datasetId}</code> · scorers {e.scorers.map((s) => s.type).join(", ")} · created{" "}
            {formatTime(e.createdAt)}
          </p>
          {e.error && (
            <p className="error" role="alert">
              {e.error}
            </p>
          )}
          {!finished(e) && <Progress experiment={e} />}
          {e.totals && <Totals totals={e.totals} />}
          <section aria-labelledby="cases-heading">
            <h2 id="cases-heading">Cases</h2>
            <QueryState query={results}>
              {(rows) => <ResultsTable results={rows} scorers={e.scorers.map((s) => s.type)} />}
            </QueryState>
          </section>
          {e.status === "completed" && <Comparison experiment={e} results={results.data ?? []} />}
        </>
      )}
    </QueryState>
  );
}

function Progress({ experiment }: { experiment: Experiment }) {
  const { done, total, errored } = experiment.progress;
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

function Card({ label, value }: { label: string; value: string }) {
  return (
    <div className="card">
      <div className="muted">{label}</div>
      <div className="value">{value}</div>
    </div>
  );
}
