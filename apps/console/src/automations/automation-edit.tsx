import type { Automation } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { Field } from "../components/field.js";
import { fieldErrors } from "../components/field-errors.js";
import { FormErrors } from "../components/form-errors.js";
import { PageHeading } from "../components/page-heading.js";
import { ErrorNote, QueryState } from "../components/query-state.js";

const FIELDS = ["name", "description", "agentId", "agentVersion", "prompt", "trigger", "enabled"] as const;
const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Create (`/automations/new`) or edit (`/automations/:id/edit`) an automation. */
export default function AutomationEdit() {
  const { id } = useParams();
  const client = useClient();
  const automation = useQuery({
    queryKey: ["automation", id],
    queryFn: () => client.automations.get(id!),
    enabled: id !== undefined,
  });
  if (!id) return <AutomationForm />;
  return <QueryState query={automation}>{(a) => <AutomationForm automation={a} />}</QueryState>;
}

function AutomationForm({ automation }: { automation?: Automation }) {
  const client = useClient();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const agents = useQuery({ queryKey: ["agents", "active"], queryFn: () => client.agents.list({ limit: 100 }) });
  const schedule = automation?.trigger.type === "schedule" ? automation.trigger : undefined;
  const [name, setName] = useState(automation?.name ?? "");
  const [description, setDescription] = useState(automation?.description ?? "");
  const [agentId, setAgentId] = useState(automation?.agentId ?? "");
  const [agentVersion, setAgentVersion] = useState(automation?.agentVersion ? String(automation.agentVersion) : "");
  const [prompt, setPrompt] = useState(automation?.prompt ?? "");
  const [kind, setKind] = useState<"schedule" | "manual">(automation ? automation.trigger.type : "schedule");
  const [cron, setCron] = useState(schedule?.cron ?? "0 9 * * 1-5");
  const [timezone, setTimezone] = useState(schedule?.timezone ?? viewerZone);
  const [overlap, setOverlap] = useState(schedule?.overlap ?? "skip");
  const [words, setWords] = useState("");
  const [enabled, setEnabled] = useState(automation?.enabled ?? true);
  const chosenAgent = agentId || agents.data?.data[0]?.id || "";

  const parse = useMutation({
    mutationFn: () => client.automations.parseSchedule({ text: words, timezone }),
    onSuccess: (parsed) => {
      setCron(parsed.cron);
      setTimezone(parsed.timezone);
    },
  });
  const save = useMutation({
    mutationFn: () => {
      const trigger =
        kind === "schedule" ? { type: "schedule" as const, cron, timezone, overlap } : { type: "manual" as const };
      const common = {
        name: name.trim(),
        prompt,
        trigger,
        enabled,
        agentVersion: agentVersion ? Number(agentVersion) : null,
      };
      return automation
        ? client.automations.update(automation.id, { ...common, description: description.trim() || null })
        : client.automations.create({
            ...common,
            agentId: chosenAgent,
            ...(description.trim() ? { description: description.trim() } : {}),
          });
    },
    onSuccess: (saved) => {
      void queries.invalidateQueries({ queryKey: ["automation", saved.id] });
      void queries.invalidateQueries({ queryKey: ["automations"] });
      navigate(`/automations/${saved.id}`);
    },
  });
  const server = fieldErrors(save.error, FIELDS);
  const errorsOf = (field: (typeof FIELDS)[number]) => server.byField.get(field) ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const title = automation ? `Edit ${automation.name}` : "New automation";

  return (
    <>
      <PageHeading title={title} />
      <form className="form-grid" onSubmit={submit} noValidate aria-label={title}>
        <Field label="Name" field="name" errors={errorsOf("name")}>
          {(props) => <input {...props} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Description" field="description" errors={errorsOf("description")}>
          {(props) => <input {...props} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <Field
          label="Agent"
          field="agentId"
          errors={errorsOf("agentId")}
          hint={automation ? "An automation's agent does not change: make a new automation for another" : undefined}
        >
          {(props) => (
            <select
              {...props}
              value={chosenAgent}
              disabled={automation !== undefined}
              onChange={(e) => setAgentId(e.target.value)}
            >
              {automation && !agents.data?.data.some((a) => a.id === automation.agentId) && (
                <option value={automation.agentId}>{automation.agentId}</option>
              )}
              {(agents.data?.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Agent version"
          field="agentVersion"
          errors={errorsOf("agentVersion")}
          hint="empty: the current version at each firing"
        >
          {(props) => (
            <input
              {...props}
              value={agentVersion}
              inputMode="numeric"
              onChange={(e) => setAgentVersion(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Prompt"
          field="prompt"
          errors={errorsOf("prompt")}
          hint="the message that opens each firing's session"
        >
          {(props) => <textarea {...props} value={prompt} rows={5} onChange={(e) => setPrompt(e.target.value)} />}
        </Field>
        <span className="form-label">Trigger</span>
        <fieldset className="group" aria-label="Trigger">
          <label className="inline">
            <input type="radio" name="trigger" checked={kind === "schedule"} onChange={() => setKind("schedule")} /> On
            a schedule
          </label>
          <label className="inline">
            <input type="radio" name="trigger" checked={kind === "manual"} onChange={() => setKind("manual")} /> Only
            when run by hand ("Run now", the API)
          </label>
          {kind === "schedule" && (
            <>
              <div className="inline-form">
                <label className="grow">
                  In words
                  <input value={words} placeholder="every weekday at 9am" onChange={(e) => setWords(e.target.value)} />
                </label>
                <button type="button" disabled={!words.trim() || parse.isPending} onClick={() => parse.mutate()}>
                  Make the cron
                </button>
                {parse.data && <span className="small">{parse.data.description}</span>}
                <ErrorNote error={parse.error} />
              </div>
              <div className="inline-form">
                <label>
                  Cron
                  <input value={cron} onChange={(e) => setCron(e.target.value)} />
                </label>
                <label>
                  Time zone
                  <input value={timezone} onChange={(e) => setTimezone(e.target.value)} />
                </label>
                <label>
                  While the previous firing works
                  <select value={overlap} onChange={(e) => setOverlap(e.target.value as typeof overlap)}>
                    <option value="skip">skip this firing</option>
                    <option value="queue_one">fire once it is done</option>
                    <option value="allow">fire anyway</option>
                  </select>
                </label>
              </div>
            </>
          )}
          {errorsOf("trigger").length > 0 && (
            <span className="field-error" role="alert">
              {errorsOf("trigger").join("; ")}
            </span>
          )}
        </fieldset>
        <span className="form-label">State</span>
        <label className="inline">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled (its
          schedule fires)
        </label>
        <span />
        <div>
          <button type="submit" className="primary" disabled={save.isPending}>
            {automation ? "Save" : "Create automation"}
          </button>{" "}
          <button type="button" onClick={() => navigate(automation ? `/automations/${automation.id}` : "/automations")}>
            Cancel
          </button>
          <FormErrors error={save.error} other={server.other} />
        </div>
      </form>
    </>
  );
}
