import { type Agent, isApiError } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { fieldErrors } from "../components/field-errors.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { modelLabel } from "./agent-config.js";

const FIELDS = ["name", "description", "model", "system", "tools", "toolPermissions", "metadata"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const JSON_FIELDS: readonly Field[] = ["tools", "toolPermissions", "metadata"];

function valuesOf(agent: Agent | undefined): Values {
  return {
    name: agent?.name ?? "",
    description: agent?.description ?? "",
    model: agent ? (typeof agent.model === "string" ? agent.model : JSON.stringify(agent.model)) : "builtin/echo",
    system: agent?.system ?? "",
    tools: JSON.stringify(agent?.tools ?? [], null, 2),
    toolPermissions: JSON.stringify(agent?.toolPermissions ?? {}, null, 2),
    metadata: JSON.stringify(agent?.metadata ?? {}, null, 2),
  };
}

/** Create (`/agents/new`) or edit (`/agents/:id/edit`): an edit sends the version it started from. */
export default function AgentEdit() {
  const { id } = useParams();
  const client = useClient();
  const agent = useQuery({ queryKey: ["agent", id], queryFn: () => client.agents.get(id!), enabled: !!id });
  if (!id) return <AgentForm />;
  return <QueryState query={agent}>{(a) => <AgentForm agent={a} />}</QueryState>;
}

function AgentForm({ agent }: { agent?: Agent }) {
  const client = useClient();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => valuesOf(agent));
  const [localErrors, setLocalErrors] = useState<Map<string, string[]>>(new Map());
  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) =>
      agent
        ? client.agents.update(agent.id, { ...body, version: agent.version } as never)
        : client.agents.create(body as never),
    onSuccess: (saved) => {
      void queries.invalidateQueries({ queryKey: ["agent", saved.id] });
      void queries.invalidateQueries({ queryKey: ["agents"] });
      navigate(`/agents/${saved.id}`);
    },
  });
  const server = fieldErrors(save.error, FIELDS);
  const errorsOf = (field: Field) => [...(localErrors.get(field) ?? []), ...(server.byField.get(field) ?? [])];

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed: Record<string, unknown> = {};
    const errors = new Map<string, string[]>();
    for (const field of FIELDS) {
      const raw = values[field];
      if (JSON_FIELDS.includes(field)) {
        try {
          parsed[field] = JSON.parse(raw || "null");
        } catch (error) {
          errors.set(field, [`not valid JSON: ${(error as Error).message}`]);
        }
      } else if (field === "model") {
        parsed.model = raw.trim().startsWith("{") ? safeJson(raw) : raw.trim();
      } else if (field === "description") {
        if (raw.trim() !== "" || agent?.description) parsed.description = raw;
      } else {
        parsed[field] = raw;
      }
    }
    setLocalErrors(errors);
    if (errors.size === 0) save.mutate(parsed);
  }

  const conflict = isApiError(save.error, "agent.version_conflict");
  return (
    <>
      <h1>{agent ? `Edit ${agent.name} (version ${agent.version})` : "New agent"}</h1>
      <form className="form-grid" onSubmit={submit} noValidate>
        <Field label="Name" field="name" errors={errorsOf("name")}>
          {(props) => (
            <input {...props} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} />
          )}
        </Field>
        <Field label="Description" field="description" errors={errorsOf("description")}>
          {(props) => (
            <input
              {...props}
              value={values.description}
              onChange={(e) => setValues({ ...values, description: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Model"
          field="model"
          errors={errorsOf("model")}
          hint="provider/model, e.g. builtin/echo or anthropic/claude-sonnet-4-5"
        >
          {(props) => (
            <input {...props} value={values.model} onChange={(e) => setValues({ ...values, model: e.target.value })} />
          )}
        </Field>
        <Field label="System prompt" field="system" errors={errorsOf("system")}>
          {(props) => (
            <textarea
              {...props}
              rows={6}
              value={values.system}
              onChange={(e) => setValues({ ...values, system: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Tools (JSON)"
          field="tools"
          errors={errorsOf("tools")}
          hint='e.g. ["web_fetch", "artifact_write"]'
        >
          {(props) => (
            <textarea
              {...props}
              rows={5}
              className="code"
              value={values.tools}
              onChange={(e) => setValues({ ...values, tools: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Tool permissions (JSON)"
          field="toolPermissions"
          errors={errorsOf("toolPermissions")}
          hint='e.g. {"artifact_write": "always_ask"}'
        >
          {(props) => (
            <textarea
              {...props}
              rows={3}
              className="code"
              value={values.toolPermissions}
              onChange={(e) => setValues({ ...values, toolPermissions: e.target.value })}
            />
          )}
        </Field>
        <Field label="Metadata (JSON)" field="metadata" errors={errorsOf("metadata")}>
          {(props) => (
            <textarea
              {...props}
              rows={3}
              className="code"
              value={values.metadata}
              onChange={(e) => setValues({ ...values, metadata: e.target.value })}
            />
          )}
        </Field>
        <span />
        <div>
          <button type="submit" className="primary" disabled={save.isPending}>
            {agent ? "Save (publishes a new version)" : "Create agent"}
          </button>{" "}
          <button type="button" onClick={() => navigate(agent ? `/agents/${agent.id}` : "/agents")}>
            Cancel
          </button>
          {server.other.length > 0 && (
            <ul className="error" role="alert">
              {server.other.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
          {conflict && (
            <p className="error" role="alert">
              Someone published a newer version meanwhile: reload the agent and apply your change again.
            </p>
          )}
          {save.error && !isApiError(save.error, "request.invalid") && !conflict ? (
            <ErrorNote error={save.error} />
          ) : null}
          {agent && <p className="muted">Current model: {modelLabel(agent.model)}</p>}
        </div>
      </form>
    </>
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function Field({
  label,
  field,
  errors,
  hint,
  children,
}: {
  label: string;
  field: string;
  errors: string[];
  hint?: string;
  children(props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }): React.ReactNode;
}) {
  const id = `field-${field}`;
  const describedBy = [errors.length ? `${id}-errors` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div>
        {children({
          id,
          ...(errors.length ? { "aria-invalid": true } : {}),
          ...(describedBy ? { "aria-describedby": describedBy } : {}),
        })}
        {hint && (
          <span id={`${id}-hint`} className="muted hint">
            {hint}
          </span>
        )}
        {errors.length > 0 && (
          <span id={`${id}-errors`} className="field-error" role="alert">
            {errors.join("; ")}
          </span>
        )}
      </div>
    </>
  );
}
