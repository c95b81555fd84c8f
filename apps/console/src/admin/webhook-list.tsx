import { isApiError, type WebhookWithSecret } from "@agent-platform/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useClient } from "../auth/session.js";
import { fieldErrors } from "../components/field-errors.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";
import { EventsPicker } from "./webhook-events.js";

/** The workspace's webhook endpoints (admin keys only: the route is not shown to members), and a form to add one. */
export default function WebhookList() {
  const client = useClient();
  const { query, items } = usePagedList(["webhooks"], (cursor) =>
    client.webhooks.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  return (
    <>
      <PageHeading title="Webhooks" />
      <p className="muted">
        A webhook endpoint receives signed events (Standard Webhooks): sessions going idle or waiting for you,
        automation runs, experiments.
      </p>
      <NewWebhook />
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <p className="muted">No webhook endpoint yet.</p>
          ) : (
            <>
              <table className="list stack" aria-label="Webhook endpoints">
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((w) => (
                    <tr key={w.id}>
                      <td data-label="URL">
                        <Link to={`/webhooks/${w.id}`}>{w.url}</Link>
                        {w.description && <div className="muted small">{w.description}</div>}
                      </td>
                      <td data-label="Events">{w.events.join(", ")}</td>
                      <td data-label="State">
                        <span className={`badge ${w.enabled ? "done" : "failed"}`}>
                          {w.enabled ? "enabled" : "disabled"}
                        </span>
                        {w.disabledReason && <div className="muted small">{w.disabledReason}</div>}
                      </td>
                      <td data-label="Created">{formatTime(w.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ListFooter query={query} count={items.length} noun="endpoints" />
            </>
          )
        }
      </QueryState>
    </>
  );
}

function NewWebhook() {
  const client = useClient();
  const queries = useQueryClient();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["*"]);
  const [created, setCreated] = useState<WebhookWithSecret | undefined>();
  const create = useMutation({
    mutationFn: () =>
      client.webhooks.create({
        url: url.trim(),
        events: events as never,
        ...(description.trim() ? { description: description.trim() } : {}),
      }),
    onSuccess: (webhook) => {
      setCreated(webhook);
      setUrl("");
      setDescription("");
      void queries.invalidateQueries({ queryKey: ["webhooks"] });
    },
  });
  const errors = fieldErrors(create.error, ["url", "events", "description"]);
  return (
    <>
      <form
        className="inline-form"
        aria-label="New webhook endpoint"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className="grow">
          URL
          <input
            value={url}
            type="url"
            placeholder="https://example.com/hooks/agent-platform"
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <label className="grow">
          Description (optional)
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <div className="grow">
          <EventsPicker events={events} onChange={setEvents} />
        </div>
        <button type="submit" className="primary" disabled={create.isPending || !url.trim() || events.length === 0}>
          Add endpoint
        </button>
        {[...errors.byField.entries()].map(([field, messages]) => (
          <span key={field} className="field-error" role="alert">
            {field}: {messages.join("; ")}
          </span>
        ))}
        {create.error && !isApiError(create.error, "request.invalid") ? <ErrorNote error={create.error} /> : null}
      </form>
      {created && (
        <div className="notice" role="status">
          Endpoint added. Its signing secret, shown this once — keep it where your receiver verifies signatures:{" "}
          <code>{created.secret}</code>
        </div>
      )}
    </>
  );
}
