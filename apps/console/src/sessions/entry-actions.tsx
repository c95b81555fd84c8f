import type { Session } from "@agent-platform/sdk";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useClient } from "../auth/session.js";
import { ModelSelect } from "../components/model-select.js";
import { ErrorNote } from "../components/query-state.js";
import { plural } from "../lib/format.js";

type Form = "fork" | "edit" | "dataset" | undefined;

/**
 * What can be done from a point of the log, in the manner of LangGraph Studio's time travel: fork a new session from
 * here (the original stays as it is), rerun a message with an edit, or keep the turn as a dataset case.
 */
export function EntryActions({
  session,
  seq,
  message,
  forkBeforeSeq,
}: {
  session: Session;
  /** The entry: a `user.message` (its turn can be rerun and kept as a case) or a `session.status_idle`. */
  seq: number;
  /** The text of a `user.message` entry; absent for a turn's end. */
  message?: string;
  /** For a message: the end of the turn before it (where an edited message forks from); 0 for the first turn. */
  forkBeforeSeq?: number;
}) {
  const [form, setForm] = useState<Form>();
  const toggle = (next: Form) => setForm(form === next ? undefined : next);
  return (
    <>
      <button type="button" aria-expanded={form === "fork"} onClick={() => toggle("fork")}>
        Fork from here
      </button>
      {message !== undefined && (
        <>
          <button type="button" aria-expanded={form === "edit"} onClick={() => toggle("edit")}>
            Edit and rerun
          </button>
          <button type="button" aria-expanded={form === "dataset"} onClick={() => toggle("dataset")}>
            Add to dataset
          </button>
        </>
      )}
      {form === "fork" && <ForkForm session={session} seq={seq} rerun={message !== undefined} />}
      {form === "edit" && message !== undefined && (
        <EditForm session={session} text={message} forkBeforeSeq={forkBeforeSeq ?? 0} />
      )}
      {form === "dataset" && <DatasetForm session={session} seq={seq} />}
    </>
  );
}

function ForkForm({ session, seq, rerun }: { session: Session; seq: number; rerun: boolean }) {
  const client = useClient();
  const navigate = useNavigate();
  const [title, setTitle] = useState(`Fork of ${session.title ?? session.id}`.slice(0, 200));
  const [model, setModel] = useState("");
  const fork = useMutation({
    mutationFn: () =>
      client.sessions.fork(session.id, { atSeq: seq, title: title.trim() || null, ...(model ? { model } : {}) }),
    onSuccess: (copy) => navigate(`/sessions/${copy.id}`),
  });
  return (
    <form
      className="inline-form"
      aria-label={`Fork at entry ${seq}`}
      onSubmit={(e) => {
        e.preventDefault();
        fork.mutate();
      }}
    >
      <span className="small">
        A new session with this log up to entry {seq}
        {rerun ? "; it answers this message again" : ""}. This one stays as it is.
      </span>
      <label>
        Title <input value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <ModelSelect value={model} onChange={setModel} none="The agent version's" />
      <button type="submit" className="primary" disabled={fork.isPending}>
        Fork
      </button>
      <ErrorNote error={fork.error} />
    </form>
  );
}

/** Forks at the end of the turn before the message and sends the edited message there (a new session). */
function EditForm({ session, text, forkBeforeSeq }: { session: Session; text: string; forkBeforeSeq: number }) {
  const client = useClient();
  const navigate = useNavigate();
  const [edited, setEdited] = useState(text);
  const [model, setModel] = useState("");
  const run = useMutation({
    mutationFn: async () => {
      const title = `Edited ${session.title ?? session.id}`.slice(0, 200);
      const events = [{ type: "user.message" as const, content: [{ type: "text" as const, text: edited }] }];
      if (forkBeforeSeq > 0) {
        const copy = await client.sessions.fork(session.id, {
          atSeq: forkBeforeSeq,
          title,
          ...(model ? { model } : {}),
        });
        await client.sessions.send(copy.id, edited);
        return copy;
      }
      // The first message: a new session of the same agent version with the same execution settings.
      if (model) throw new Error("A different model can be chosen from the second message on (forks carry it)");
      return client.sessions.create({
        agent: session.agent,
        title,
        metadata: session.metadata,
        environmentId: session.environmentId,
        vaultIds: session.vaultIds,
        resources: session.resources.map((r) => ({ memoryStore: r.memoryStoreId, mode: r.mode })),
        events,
      });
    },
    onSuccess: (copy) => navigate(`/sessions/${copy.id}`),
  });
  return (
    <form
      className="inline-form"
      aria-label="Edit and rerun"
      onSubmit={(e) => {
        e.preventDefault();
        if (edited.trim()) run.mutate();
      }}
    >
      <label className="grow">
        Message in a new session (this one stays as it is)
        <textarea value={edited} rows={3} onChange={(e) => setEdited(e.target.value)} />
      </label>
      {forkBeforeSeq > 0 && <ModelSelect value={model} onChange={setModel} none="The agent version's" />}
      <button type="submit" className="primary" disabled={run.isPending || !edited.trim()}>
        Rerun
      </button>
      <ErrorNote error={run.error} />
    </form>
  );
}

function DatasetForm({ session, seq }: { session: Session; seq: number }) {
  const client = useClient();
  const datasets = useQuery({
    queryKey: ["datasets", "first"],
    queryFn: () => client.datasets.list({ limit: 100 }),
  });
  const [datasetId, setDatasetId] = useState("");
  const [conversation, setConversation] = useState(false);
  const [expected, setExpected] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: (id: string) =>
      client.datasets.appendCaseFromSession(id, {
        sessionId: session.id,
        seq,
        includeConversation: conversation,
        ...(expected !== undefined ? { expected } : {}),
      }),
  });
  const chosen = datasetId || datasets.data?.data[0]?.id || "";
  if (datasets.data && datasets.data.data.length === 0) {
    return (
      <p className="inline-form small">
        No dataset yet: <Link to="/datasets">create one</Link>, then add this turn to it.
      </p>
    );
  }
  return (
    <form
      className="inline-form"
      aria-label="Add this turn to a dataset"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) add.mutate(chosen);
      }}
    >
      <label>
        Dataset
        <select value={chosen} onChange={(e) => setDatasetId(e.target.value)}>
          {(datasets.data?.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({plural(d.caseCount, "case")})
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <input type="checkbox" checked={conversation} onChange={(e) => setConversation(e.target.checked)} /> with the
        earlier messages
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={expected !== undefined}
          onChange={(e) => setExpected(e.target.checked ? "" : undefined)}
        />{" "}
        my own expected answer
      </label>
      {expected !== undefined && (
        <label className="grow">
          Expected answer
          <textarea value={expected} rows={2} onChange={(e) => setExpected(e.target.value)} />
        </label>
      )}
      <button type="submit" className="primary" disabled={add.isPending || !chosen}>
        Add case
      </button>
      {add.data && (
        <span className="notice" role="status">
          Added as case {add.data.position} of <Link to={`/datasets/${add.data.datasetId}`}>the dataset</Link>.
        </span>
      )}
      <ErrorNote error={add.error} />
    </form>
  );
}
