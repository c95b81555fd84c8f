import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useClient } from "../auth/session.js";
import { Field } from "../components/field.js";
import { fieldErrors } from "../components/field-errors.js";
import { FormErrors } from "../components/form-errors.js";
import { ModelSelect } from "../components/model-select.js";
import { PageHeading } from "../components/page-heading.js";
import { useModels } from "../lib/catalogue.js";
import { plural } from "../lib/format.js";
import { type ScorerDrafts, ScorersEditor, scorersOf } from "./scorers-editor.js";

const FIELDS = ["name", "datasetId", "task", "scorers", "concurrency"] as const;

/** Launches an experiment: a dataset, a task (an agent version or a model with a prompt), scorers. */
export default function NewExperiment() {
  const client = useClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const datasets = useQuery({ queryKey: ["datasets", "first"], queryFn: () => client.datasets.list({ limit: 100 }) });
  const agents = useQuery({ queryKey: ["agents", "active"], queryFn: () => client.agents.list({ limit: 100 }) });
  const models = useModels();
  const [name, setName] = useState("");
  const [datasetId, setDatasetId] = useState(params.get("dataset") ?? "");
  const [taskType, setTaskType] = useState<"agent" | "model">("agent");
  const [agentId, setAgentId] = useState(params.get("agent") ?? "");
  const [agentVersion, setAgentVersion] = useState("");
  const [maxTurns, setMaxTurns] = useState("");
  const [confineReadonly, setConfineReadonly] = useState(false);
  const [model, setModel] = useState("");
  const [system, setSystem] = useState("");
  const [temperature, setTemperature] = useState("");
  const [concurrency, setConcurrency] = useState("");
  const [scorers, setScorers] = useState<ScorerDrafts>({ not_empty: { on: true, fields: {} } });
  const [missing, setMissing] = useState<Map<string, string[]>>(new Map());

  const chosenDataset = datasetId || datasets.data?.data[0]?.id || "";
  const chosenAgent = agentId || agents.data?.data[0]?.id || "";
  const chosenModel = model || models.data?.find((m) => m.available)?.id || "";
  const create = useMutation({
    mutationFn: () =>
      client.experiments.create({
        name: name.trim(),
        datasetId: chosenDataset,
        task:
          taskType === "agent"
            ? {
                type: "agent",
                agentId: chosenAgent,
                ...(agentVersion ? { agentVersion: Number(agentVersion) } : {}),
                ...(maxTurns ? { maxTurns: Number(maxTurns) } : {}),
                ...(confineReadonly ? { confineReadonly } : {}),
              }
            : {
                type: "model",
                model: chosenModel,
                ...(system.trim() ? { system } : {}),
                ...(temperature ? { temperature: Number(temperature) } : {}),
              },
        scorers: scorersOf(scorers),
        ...(concurrency ? { concurrency: Number(concurrency) } : {}),
      } as Parameters<typeof client.experiments.create>[0]),
    onSuccess: (experiment) => navigate(`/experiments/${experiment.id}`),
  });
  const server = fieldErrors(create.error, FIELDS);
  const errorsOf = (field: string) => [...(missing.get(field) ?? []), ...(server.byField.get(field) ?? [])];

  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = new Map<string, string[]>();
    if (!name.trim()) problems.set("name", ["give the experiment a name"]);
    if (!chosenDataset) problems.set("datasetId", ["create a dataset first"]);
    if (scorersOf(scorers).length === 0) problems.set("scorers", ["choose at least one scorer"]);
    setMissing(problems);
    if (problems.size === 0) create.mutate();
  }

  return (
    <>
      <PageHeading title="New experiment" />
      <form className="form-grid" onSubmit={submit} noValidate aria-label="New experiment">
        <Field label="Name" field="name" errors={errorsOf("name")}>
          {(props) => <input {...props} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field
          label="Dataset"
          field="datasetId"
          errors={errorsOf("datasetId")}
          hint={<Link to="/datasets">Datasets</Link>}
        >
          {(props) => (
            <select {...props} value={chosenDataset} onChange={(e) => setDatasetId(e.target.value)}>
              {(datasets.data?.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({plural(d.caseCount, "case")})
                </option>
              ))}
            </select>
          )}
        </Field>
        <span className="form-label">Task</span>
        <fieldset className="group" aria-label="Task">
          <label className="inline">
            <input type="radio" name="task" checked={taskType === "agent"} onChange={() => setTaskType("agent")} /> An
            agent (each case is a session with its tools)
          </label>
          <label className="inline">
            <input type="radio" name="task" checked={taskType === "model"} onChange={() => setTaskType("model")} /> A
            model with a prompt (one call per case, no tools)
          </label>
          {taskType === "agent" ? (
            <div className="inline-form">
              <label>
                Agent
                <select aria-label="Agent" value={chosenAgent} onChange={(e) => setAgentId(e.target.value)}>
                  {(agents.data?.data ?? []).map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} (v{a.version})
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Version
                <input
                  value={agentVersion}
                  inputMode="numeric"
                  placeholder="current"
                  onChange={(e) => setAgentVersion(e.target.value)}
                />
              </label>
              <label>
                Model calls per case at most
                <input
                  value={maxTurns}
                  inputMode="numeric"
                  placeholder="12"
                  onChange={(e) => setMaxTurns(e.target.value)}
                />
              </label>
              <label className="inline">
                <input
                  type="checkbox"
                  checked={confineReadonly}
                  onChange={(e) => setConfineReadonly(e.target.checked)}
                />{" "}
                read-only tools only
              </label>
            </div>
          ) : (
            <div className="inline-form">
              <ModelSelect value={chosenModel} onChange={setModel} />
              <label>
                Temperature
                <input
                  value={temperature}
                  inputMode="decimal"
                  placeholder="default"
                  onChange={(e) => setTemperature(e.target.value)}
                />
              </label>
              <label className="grow">
                System prompt
                <textarea value={system} rows={3} onChange={(e) => setSystem(e.target.value)} />
              </label>
            </div>
          )}
          {errorsOf("task").length > 0 && (
            <span className="field-error" role="alert">
              {errorsOf("task").join("; ")}
            </span>
          )}
        </fieldset>
        <span className="form-label">Scorers</span>
        <div>
          <ScorersEditor
            drafts={scorers}
            onChange={setScorers}
            describedBy={errorsOf("scorers").length ? "scorers-errors" : undefined}
          />
          {errorsOf("scorers").length > 0 && (
            <span id="scorers-errors" className="field-error" role="alert">
              {errorsOf("scorers").join("; ")}
            </span>
          )}
        </div>
        <Field label="Cases at once" field="concurrency" errors={errorsOf("concurrency")} hint="default 4, at most 32">
          {(props) => (
            <input
              {...props}
              value={concurrency}
              inputMode="numeric"
              placeholder="4"
              onChange={(e) => setConcurrency(e.target.value)}
            />
          )}
        </Field>
        <span />
        <div>
          <button type="submit" className="primary" disabled={create.isPending}>
            Run experiment
          </button>
          <FormErrors error={create.error} other={server.other} />
        </div>
      </form>
    </>
  );
}
