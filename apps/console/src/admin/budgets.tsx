import { type Budget, isApiError } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useClient } from "../auth/session.js";
import { fieldErrors } from "../components/field-errors.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatNumber, formatTime, formatUsd } from "../lib/format.js";

const amount = (budget: Pick<Budget, "meter">, value: number) =>
  budget.meter === "cost_usd" ? formatUsd(value) : formatNumber(value);

/** The workspace's budgets (admin keys): what each has used of its limit this period; create and delete them. */
export function Budgets() {
  const client = useClient();
  const queries = useQueryClient();
  const { query, items } = usePagedList(
    ["budgets"],
    (cursor) => client.budgets.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
    { refreshMs: 10_000 },
  );
  const remove = useMutation({
    mutationFn: (id: string) => client.budgets.delete(id),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["budgets"] }),
  });
  return (
    <section aria-labelledby="budgets-heading">
      <h2 id="budgets-heading">Budgets</h2>
      <p className="muted">
        A budget counts usage by meter (tokens, model calls, sessions, estimated dollars) for the workspace or one agent
        per day, month or in total, and either reports it (notify) or refuses new sessions and experiments past its
        limit (block).
      </p>
      <NewBudget />
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <p className="muted">No budget yet.</p>
          ) : (
            <>
              <table className="list stack" aria-label="Budgets">
                <thead>
                  <tr>
                    <th scope="col">Scope</th>
                    <th scope="col">Meter</th>
                    <th scope="col">Used</th>
                    <th scope="col">Period</th>
                    <th scope="col">Action</th>
                    <th scope="col">
                      <span className="visually-hidden">Delete</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((b) => (
                    <tr key={b.id}>
                      <td data-label="Scope">
                        {b.scope === "agent" ? <Link to={`/agents/${b.agentId}`}>agent {b.agentId}</Link> : "workspace"}
                      </td>
                      <td data-label="Meter">{b.meter}</td>
                      <td data-label="Used">
                        <meter min={0} max={b.limit} value={Math.min(b.used, b.limit)} aria-label={`${b.meter} used`} />{" "}
                        {amount(b, b.used)} of {amount(b, b.limit)} ({formatNumber((b.used / b.limit) * 100, 1)} %)
                        {b.exceeded && <span className="badge failed">exceeded</span>}
                      </td>
                      <td data-label="Period">
                        {b.period}
                        {b.resetsAt && <div className="muted small">resets {formatTime(b.resetsAt)}</div>}
                      </td>
                      <td data-label="Action">{b.action}</td>
                      <td>
                        <button
                          type="button"
                          aria-label={`Delete the ${b.meter} budget of ${b.scope === "agent" ? b.agentId : "the workspace"}`}
                          disabled={remove.isPending}
                          onClick={() => {
                            if (window.confirm("Delete this budget? Its limit stops applying at once."))
                              remove.mutate(b.id);
                          }}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ListFooter query={query} count={items.length} noun="budgets" />
              <ErrorNote error={remove.error} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function NewBudget() {
  const client = useClient();
  const queries = useQueryClient();
  const agents = useQuery({
    queryKey: ["agents", "all"],
    queryFn: () => client.agents.list({ limit: 100, status: "all" }),
  });
  const [scope, setScope] = useState<"workspace" | "agent">("workspace");
  const [agentId, setAgentId] = useState("");
  const [meter, setMeter] = useState<Budget["meter"]>("cost_usd");
  const [limit, setLimit] = useState("");
  const [period, setPeriod] = useState<Budget["period"]>("month");
  const [action, setAction] = useState<Budget["action"]>("notify");
  const create = useMutation({
    mutationFn: () =>
      client.budgets.create({
        scope,
        ...(scope === "agent" ? { agentId: agentId || agents.data?.data[0]?.id || "" } : {}),
        meter,
        limit: Number(limit),
        period,
        action,
      } as Parameters<typeof client.budgets.create>[0]),
    onSuccess: () => {
      setLimit("");
      void queries.invalidateQueries({ queryKey: ["budgets"] });
    },
  });
  const errors = fieldErrors(create.error, ["scope", "agentId", "meter", "limit", "period", "action"]);
  return (
    <form
      className="inline-form"
      aria-label="New budget"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <label>
        For
        <select value={scope} onChange={(e) => setScope(e.target.value as typeof scope)}>
          <option value="workspace">the workspace</option>
          <option value="agent">one agent</option>
        </select>
      </label>
      {scope === "agent" && (
        <label>
          Agent
          <select value={agentId || agents.data?.data[0]?.id || ""} onChange={(e) => setAgentId(e.target.value)}>
            {(agents.data?.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Meter
        <select value={meter} onChange={(e) => setMeter(e.target.value as Budget["meter"])}>
          <option value="cost_usd">estimated cost ($)</option>
          <option value="tokens">tokens</option>
          <option value="model_calls">model calls</option>
          <option value="sessions">sessions</option>
        </select>
      </label>
      <label>
        Limit{meter === "cost_usd" ? " ($)" : ""}
        <input value={limit} inputMode="decimal" required onChange={(e) => setLimit(e.target.value)} />
      </label>
      <label>
        Per
        <select value={period} onChange={(e) => setPeriod(e.target.value as Budget["period"])}>
          <option value="day">day (UTC)</option>
          <option value="month">month (UTC)</option>
          <option value="total">in total</option>
        </select>
      </label>
      <label>
        Past it
        <select value={action} onChange={(e) => setAction(e.target.value as Budget["action"])}>
          <option value="notify">notify only</option>
          <option value="block">block new work</option>
        </select>
      </label>
      <button type="submit" className="primary" disabled={create.isPending || !limit.trim()}>
        Add budget
      </button>
      {[...errors.byField.entries()].map(([field, messages]) => (
        <span key={field} className="field-error" role="alert">
          {field}: {messages.join("; ")}
        </span>
      ))}
      {errors.other.map((m) => (
        <span key={m} className="field-error" role="alert">
          {m}
        </span>
      ))}
      {create.error && !isApiError(create.error, "request.invalid") ? <ErrorNote error={create.error} /> : null}
    </form>
  );
}
