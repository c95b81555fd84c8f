import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatNumber, formatTime } from "../lib/format.js";

export default function WebhookPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const queries = useQueryClient();
  const webhook = useQuery({ queryKey: ["webhook", id], queryFn: () => client.webhooks.get(id) });
  const deliveries = useQuery({
    queryKey: ["webhook", id, "deliveries"],
    queryFn: () => client.webhooks.listDeliveries(id, { limit: 50 }),
    refetchInterval: 3_000,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ["webhook", id] });
  const test = useMutation({ mutationFn: () => client.webhooks.test(id), onSuccess: refresh });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => client.webhooks.redeliver(id, deliveryId),
    onSuccess: refresh,
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => client.webhooks.update(id, { enabled }),
    onSuccess: refresh,
  });
  return (
    <QueryState query={webhook}>
      {(w) => (
        <>
          <header className="page-header">
            <h1>{w.url}</h1>
            <span className={`badge ${w.enabled ? "done" : "failed"}`}>{w.enabled ? "enabled" : "disabled"}</span>
            <span className="spacer" />
            <button type="button" className="primary" disabled={test.isPending} onClick={() => test.mutate()}>
              Send test event
            </button>
            <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(!w.enabled)}>
              {w.enabled ? "Disable" : "Enable"}
            </button>
          </header>
          <ErrorNote error={test.error ?? toggle.error ?? redeliver.error} />
          <p className="muted">
            Events {w.events.join(", ")} · projects {w.projectIds?.join(", ") ?? "all"} · secret rotated{" "}
            {formatTime(w.secretRotatedAt)}
            {w.disabledReason && ` · disabled: ${w.disabledReason}`}
          </p>
          <section aria-labelledby="deliveries-heading">
            <h2 id="deliveries-heading">Deliveries</h2>
            <QueryState query={deliveries}>
              {(page) =>
                page.data.length === 0 ? (
                  <p className="muted">No delivery yet: send a test event.</p>
                ) : (
                  <table className="list" aria-label="Deliveries">
                    <thead>
                      <tr>
                        <th scope="col">Event</th>
                        <th scope="col">Status</th>
                        <th scope="col">Attempts</th>
                        <th scope="col">Last attempt</th>
                        <th scope="col">Created</th>
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.data.map((d) => (
                        <tr key={d.id}>
                          <td>
                            {d.eventType}
                            <div className="muted small">{d.eventId}</div>
                          </td>
                          <td>
                            <span
                              className={`badge ${d.status === "succeeded" ? "done" : d.status === "failed" ? "failed" : "pending"}`}
                            >
                              {d.status}
                            </span>
                          </td>
                          <td>{d.attempts}</td>
                          <td>
                            {d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : "no response"}
                            {d.latencyMs !== null && ` in ${formatNumber(d.latencyMs)} ms`}
                            {d.lastError && <div className="error small">{d.lastError}</div>}
                            {d.nextAttemptAt && (
                              <div className="muted small">next attempt {formatTime(d.nextAttemptAt)}</div>
                            )}
                          </td>
                          <td>{formatTime(d.createdAt)}</td>
                          <td>
                            {d.status !== "pending" && (
                              <button
                                type="button"
                                disabled={redeliver.isPending}
                                aria-label={`Redeliver ${d.eventType} ${d.eventId}`}
                                onClick={() => redeliver.mutate(d.id)}
                              >
                                Redeliver
                              </button>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )
              }
            </QueryState>
          </section>
        </>
      )}
    </QueryState>
  );
}
