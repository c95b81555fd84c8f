import type { Webhook } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatNumber, formatTime } from "../lib/format.js";
import { EventsPicker } from "./webhook-events.js";

export default function WebhookPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const queries = useQueryClient();
  const webhook = useQuery({ queryKey: ["webhook", id], queryFn: () => client.webhooks.get(id) });
  const deliveries = usePagedList(
    ["webhook", id, "deliveries"],
    (cursor) => client.webhooks.listDeliveries(id, { limit: 100, ...(cursor ? { cursor } : {}) }),
    { refreshMs: 3_000 },
  );
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | undefined>();
  const rotate = useMutation({
    mutationFn: () => client.webhooks.rotateSecret(id),
    onSuccess: (rotated) => {
      setSecret(rotated.secret);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => client.webhooks.remove(id),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["webhooks"] });
      navigate("/webhooks");
    },
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
            <PageHeading title={w.url} />
            <span className={`badge ${w.enabled ? "done" : "failed"}`}>{w.enabled ? "enabled" : "disabled"}</span>
            <span className="spacer" />
            <button type="button" className="primary" disabled={test.isPending} onClick={() => test.mutate()}>
              Send test event
            </button>
            <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(!w.enabled)}>
              {w.enabled ? "Disable" : "Enable"}
            </button>
            <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit
            </button>
            <button
              type="button"
              disabled={rotate.isPending}
              onClick={() => {
                if (
                  window.confirm(
                    "Rotate the signing secret? The old one keeps signing for a while, beside the new one.",
                  )
                ) {
                  rotate.mutate();
                }
              }}
            >
              Rotate secret
            </button>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm("Delete this endpoint? It receives nothing more; its deliveries go with it."))
                  remove.mutate();
              }}
            >
              Delete
            </button>
          </header>
          {secret && (
            <div className="notice" role="status">
              New signing secret, shown this once: <code>{secret}</code>
            </div>
          )}
          {editing && <EditWebhook webhook={w} onDone={() => setEditing(false)} />}
          <ErrorNote error={test.error ?? toggle.error ?? redeliver.error ?? rotate.error ?? remove.error} />
          <p className="muted">
            Events {w.events.join(", ")} · projects {w.projectIds?.join(", ") ?? "all"} ·{" "}
            {w.secretRotatedAt ? `secret rotated ${formatTime(w.secretRotatedAt)}` : "secret never rotated"}
            {w.disabledReason && ` · disabled: ${w.disabledReason}`}
          </p>
          <section aria-labelledby="deliveries-heading">
            <h2 id="deliveries-heading">Deliveries</h2>
            <QueryState query={deliveries.query}>
              {() =>
                deliveries.items.length === 0 ? (
                  <p className="muted">No delivery yet: send a test event.</p>
                ) : (
                  <>
                    <table className="list stack" aria-label="Deliveries">
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
                        {deliveries.items.map((d) => (
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
                    <ListFooter query={deliveries.query} count={deliveries.items.length} noun="deliveries" />
                  </>
                )
              }
            </QueryState>
          </section>
        </>
      )}
    </QueryState>
  );
}

function EditWebhook({ webhook, onDone }: { webhook: Webhook; onDone(): void }) {
  const client = useClient();
  const queries = useQueryClient();
  const [url, setUrl] = useState(webhook.url);
  const [description, setDescription] = useState(webhook.description ?? "");
  const [events, setEvents] = useState<string[]>(webhook.events);
  const save = useMutation({
    mutationFn: () =>
      client.webhooks.update(webhook.id, {
        url: url.trim(),
        events: events as never,
        description: description.trim() || null,
      }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["webhook", webhook.id] });
      void queries.invalidateQueries({ queryKey: ["webhooks"] });
      onDone();
    },
  });
  return (
    <form
      className="inline-form"
      aria-label="Edit the endpoint"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label className="grow">
        URL
        <input value={url} type="url" onChange={(e) => setUrl(e.target.value)} />
      </label>
      <label className="grow">
        Description
        <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="grow">
        <EventsPicker events={events} onChange={setEvents} />
      </div>
      <button type="submit" className="primary" disabled={save.isPending || events.length === 0}>
        Save
      </button>
      <ErrorNote error={save.error} />
    </form>
  );
}
