import type { UsageRow } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { Card } from "../components/card.js";
import { DailyChart } from "../components/daily-chart.js";
import { PageHeading } from "../components/page-heading.js";
import { QueryState } from "../components/query-state.js";
import { formatNumber, formatUsd } from "../lib/format.js";
import { Budgets } from "./budgets.js";

type Metric = "costUsd" | "tokens" | "calls";
const METRICS: Record<Metric, { label: string; format(v: number): string }> = {
  costUsd: { label: "Estimated cost", format: formatUsd },
  tokens: { label: "Tokens", format: (v) => formatNumber(v) },
  calls: { label: "Model calls", format: (v) => formatNumber(v) },
};

interface Sum {
  calls: number;
  tokens: number;
  costUsd: number;
  unpricedCalls: number;
}
const empty = (): Sum => ({ calls: 0, tokens: 0, costUsd: 0, unpricedCalls: 0 });
function add(sum: Sum, row: UsageRow): void {
  sum.calls += row.calls;
  sum.tokens += row.inputTokens + row.outputTokens;
  sum.costUsd += row.costUsd;
  sum.unpricedCalls += row.unpricedCalls;
}

/** The project's model usage over time, by agent and by model; and, for admin keys, the workspace's budgets. */
export default function UsagePage() {
  const { client, isAdmin } = useSignedIn();
  const [days, setDays] = useState(14);
  const [metric, setMetric] = useState<Metric>("costUsd");
  const usage = useQuery({
    queryKey: ["usage", days],
    queryFn: () => client.sessions.usage({ days }),
    refetchInterval: 30_000,
  });
  const agents = useQuery({
    queryKey: ["agents", "all"],
    queryFn: () => client.agents.list({ limit: 100, status: "all" }),
  });
  const agentName = new Map((agents.data?.data ?? []).map((a) => [a.id, a.name]));
  const view = useMemo(() => {
    if (!usage.data) return undefined;
    const byDay = new Map<string, Sum>();
    const byAgent = new Map<string, Sum>();
    const byModel = new Map<string, Sum>();
    const total = empty();
    for (const row of usage.data.data) {
      for (const [map, key] of [
        [byDay, row.date],
        [byAgent, row.agentId],
        [byModel, row.model],
      ] as const) {
        if (!map.has(key)) map.set(key, empty());
        add(map.get(key)!, row);
      }
      add(total, row);
    }
    const dates: string[] = [];
    for (let t = Date.parse(usage.data.from); t <= Date.parse(usage.data.to); t += 86_400_000) {
      dates.push(new Date(t).toISOString().slice(0, 10));
    }
    return { byDay, byAgent, byModel, total, dates };
  }, [usage.data]);

  return (
    <>
      <PageHeading title={isAdmin ? "Usage & budgets" : "Usage"} />
      <div className="filters">
        <label>
          Period
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            <option value={7}>last 7 days</option>
            <option value={14}>last 14 days</option>
            <option value={30}>last 30 days</option>
            <option value={90}>last 90 days</option>
          </select>
        </label>
        <label>
          Chart
          <select value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
            {Object.entries(METRICS).map(([key, m]) => (
              <option key={key} value={key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryState query={usage}>
        {(u) =>
          view && (
            <>
              <div className="cards">
                <Card label={`Estimated cost, ${u.from} to ${u.to}`} value={formatUsd(view.total.costUsd)} />
                <Card label="Model calls" value={formatNumber(view.total.calls)} />
                <Card label="Tokens (input + output)" value={formatNumber(view.total.tokens)} />
              </div>
              {view.total.unpricedCalls > 0 && (
                <p className="muted small">
                  {formatNumber(view.total.unpricedCalls)} calls used models without a known price and are not in the
                  cost.
                </p>
              )}
              <DailyChart
                title={`${METRICS[metric].label} per day (UTC)`}
                days={view.dates.map((date) => ({ date, value: view.byDay.get(date)?.[metric] ?? 0 }))}
                format={METRICS[metric].format}
              />
              <div className="cards">
                <Breakdown
                  title="By agent"
                  column="Agent"
                  rows={[...view.byAgent].map(([id, sum]) => ({
                    key: id,
                    label: <Link to={`/agents/${id}`}>{agentName.get(id) ?? id}</Link>,
                    sum,
                  }))}
                />
                <Breakdown
                  title="By model"
                  column="Model"
                  rows={[...view.byModel].map(([model, sum]) => ({ key: model, label: <code>{model}</code>, sum }))}
                />
              </div>
              <p className="muted small">
                From the sessions' logs (agent experiments included; model-task experiments and judges are counted by
                budgets only).
              </p>
            </>
          )
        }
      </QueryState>
      {isAdmin && <Budgets />}
    </>
  );
}

function Breakdown({
  title,
  column,
  rows,
}: {
  title: string;
  column: string;
  rows: { key: string; label: React.ReactNode; sum: Sum }[];
}) {
  const sorted = [...rows].sort((a, b) => b.sum.costUsd - a.sum.costUsd || b.sum.tokens - a.sum.tokens);
  return (
    <section className="card" aria-label={title}>
      <h2 className="small">{title}</h2>
      {sorted.length === 0 ? (
        <p className="muted">No model call in this period.</p>
      ) : (
        <div className="table-wrap">
          <table className="list small">
            <thead>
              <tr>
                <th scope="col">{column}</th>
                <th scope="col">Calls</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((row) => (
                <tr key={row.key}>
                  <td>{row.label}</td>
                  <td>{formatNumber(row.sum.calls)}</td>
                  <td>{formatNumber(row.sum.tokens)}</td>
                  <td>
                    {formatUsd(row.sum.costUsd)}
                    {row.sum.unpricedCalls > 0 ? "+" : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
