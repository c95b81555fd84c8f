import { type Agent, isApiError } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { Field } from "../components/field.js";
import { fieldErrors } from "../components/field-errors.js";
import { FormErrors } from "../components/form-errors.js";
import { PageHeading } from "../components/page-heading.js";
import { PairsEditor } from "../components/pairs-editor.js";
import { QueryState } from "../components/query-state.js";
import { sameConfig } from "./agent-config.js";
import { type AgentDraft, draftOf, modelOf, SchemaError, toolsOf } from "./editor/draft.js";
import { guardrailErrors, guardrailOf, missingSettings } from "./editor/guardrail-draft.js";
import { GuardrailsEditor } from "./editor/guardrails-editor.js";
import { ModelPicker } from "./editor/model-picker.js";
import { PermissionsEditor } from "./editor/permissions-editor.js";
import { ToolsEditor } from "./editor/tools-editor.js";

const FIELDS = [
  "name",
  "description",
  "model",
  "system",
  "tools",
  "toolPermissions",
  "metadata",
  "guardrails",
] as const;
type FieldName = (typeof FIELDS)[number];

/** Create (`/agents/new`) or edit (`/agents/:id/edit`): an edit sends the version it started from. */
export default function AgentEdit() {
  const { id } = useParams();
  const client = useClient();
  const agent = useQuery({ queryKey: ["agent", id], queryFn: () => client.agents.get(id!), enabled: !!id });
  if (!id) return <AgentForm />;
  return <QueryState query={agent}>{(a) => <AgentForm agent={a} />}</QueryState>;
}

/**
 * Errors the API reports with a code of their own rather than a field path, by the field they concern: a model-backed
 * guardrail's model is named "Guardrail 2 (…)" in the message, the agent's own model is not.
 */
function codedField(error: unknown): FieldName | undefined {
  if (!isApiError(error, "agent.invalid_model")) return undefined;
  return /^Guardrail \d+ \(/.test(error.message) ? "guardrails" : "model";
}

function AgentForm({ agent }: { agent?: Agent }) {
  const client = useClient();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<AgentDraft>(() => draftOf(agent));
  const [localErrors, setLocalErrors] = useState<Map<string, string[]>>(new Map());
  const [localGuardrailErrors, setLocalGuardrailErrors] = useState<Map<number, Map<string, string[]>>>(new Map());
  const sentTools = useRef<unknown[]>([]);
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
  const coded = codedField(save.error);
  const errorsOf = (field: FieldName) => [
    ...(localErrors.get(field) ?? []),
    ...(server.byField.get(field) ?? []).map((m) => (field === "tools" ? namedToolError(m, sentTools.current) : m)),
    ...(coded === field && isApiError(save.error) ? [save.error.message] : []),
  ];
  const set = (patch: Partial<AgentDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const guardrailProblems = guardrailErrors(errorsOf("guardrails"));
  for (const [index, fields] of localGuardrailErrors) {
    const merged = guardrailProblems.byGuardrail.get(index) ?? new Map<string, string[]>();
    for (const [path, messages] of fields) merged.set(path, [...(merged.get(path) ?? []), ...messages]);
    guardrailProblems.byGuardrail.set(index, merged);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = new Map<string, string[]>();
    let tools: unknown[] = [];
    try {
      tools = toolsOf(draft);
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      errors.set("tools", [error.message]);
    }
    if (!draft.model.id.trim()) errors.set("model", ["choose a model"]);
    const duplicate = draft.metadata.map((m) => m.key.trim()).find((key, i, keys) => key && keys.indexOf(key) !== i);
    if (duplicate) errors.set("metadata", [`the key “${duplicate}” is there twice`]);
    const missing = new Map(
      draft.guardrails.map((g, i) => [i, missingSettings(g)] as const).filter(([, fields]) => fields.size > 0),
    );
    setLocalErrors(errors);
    setLocalGuardrailErrors(missing);
    if (errors.size > 0 || missing.size > 0) return;
    const guardrails = draft.guardrails.map(guardrailOf);
    // An edit sends the guardrails only when they changed (the list replaces the whole list and publishes a version).
    // Compared as form rows: the rows of an untouched list are those of the agent's, whatever order its settings had.
    const sendGuardrails = agent ? !sameConfig(draft.guardrails, draftOf(agent).guardrails) : guardrails.length > 0;
    sentTools.current = tools;
    save.mutate({
      name: draft.name,
      ...(draft.description.trim() || agent?.description ? { description: draft.description } : {}),
      model: modelOf(draft.model),
      system: draft.system,
      tools,
      toolPermissions: Object.fromEntries(
        draft.permissions.filter((p) => p.tool.trim()).map((p) => [p.tool.trim(), p.policy]),
      ),
      metadata: Object.fromEntries(draft.metadata.filter((m) => m.key.trim()).map((m) => [m.key.trim(), m.value])),
      ...(sendGuardrails ? { guardrails } : {}),
    });
  }

  const conflict = isApiError(save.error, "agent.version_conflict");
  const toolNames = [...draft.builtins, ...draft.custom.map((t) => t.name).filter(Boolean)];
  const title = agent ? `Edit ${agent.name} (version ${agent.version})` : "New agent";
  return (
    <>
      <PageHeading title={title} />
      <form className="form-grid" onSubmit={submit} noValidate aria-label={title}>
        <Field label="Name" field="name" errors={errorsOf("name")}>
          {(props) => <input {...props} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
        </Field>
        <Field label="Description" field="description" errors={errorsOf("description")}>
          {(props) => (
            <input {...props} value={draft.description} onChange={(e) => set({ description: e.target.value })} />
          )}
        </Field>
        <Field label="Model" field="model" errors={errorsOf("model")}>
          {(props) => (
            <ModelPicker
              value={draft.model}
              onChange={(model) => {
                set({ model });
                // The model's error is about the model sent: a new choice starts clean.
                if (coded === "model") save.reset();
              }}
              fieldProps={props}
            />
          )}
        </Field>
        <Field label="System prompt" field="system" errors={errorsOf("system")}>
          {(props) => (
            <textarea {...props} rows={8} value={draft.system} onChange={(e) => set({ system: e.target.value })} />
          )}
        </Field>
        <Field label="Tools" field="tools" errors={errorsOf("tools")} group>
          {() => (
            <ToolsEditor
              builtins={draft.builtins}
              custom={draft.custom}
              onBuiltins={(builtins) => set({ builtins })}
              onCustom={(custom) => set({ custom })}
            />
          )}
        </Field>
        <Field
          label="Tool permissions"
          field="toolPermissions"
          errors={errorsOf("toolPermissions")}
          hint="Without a row, built-in tools run and MCP tools ask first"
          group
        >
          {() => (
            <PermissionsEditor
              permissions={draft.permissions}
              toolNames={toolNames}
              onChange={(permissions) => set({ permissions })}
            />
          )}
        </Field>
        <Field label="Metadata" field="metadata" errors={errorsOf("metadata")} group>
          {() => (
            <PairsEditor
              pairs={draft.metadata}
              onChange={(metadata) => set({ metadata })}
              labels={["Key", "Value"]}
              noun="metadata entry"
            />
          )}
        </Field>
        <Field
          label="Guardrails"
          field="guardrails"
          errors={guardrailProblems.other}
          hint="Checks on the user's messages, tool results and replies, run in order (block, redact or flag)"
          group
        >
          {() => (
            <GuardrailsEditor
              guardrails={draft.guardrails}
              errors={guardrailProblems.byGuardrail}
              onChange={(guardrails) => {
                set({ guardrails });
                setLocalGuardrailErrors(new Map());
              }}
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
          {conflict && (
            <p className="error" role="alert">
              Someone published a newer version meanwhile: reload the agent and apply your change again.
            </p>
          )}
          <FormErrors error={save.error} other={server.other} shown={conflict || coded !== undefined} />
          {agent && (
            <p className="muted">
              MCP servers, skills, knowledge bases and the multi-agent roster are kept as they are (edit them with the
              API).
            </p>
          )}
        </div>
      </form>
    </>
  );
}

/** `3.name: …` (an index into the tools sent) → `tool “lookup”, name: …`. */
function namedToolError(message: string, tools: unknown[]): string {
  const match = /^(\d+)(?:\.(.*?))?: (.*)$/s.exec(message);
  if (!match) return message;
  const tool = tools[Number(match[1])];
  const name = typeof tool === "string" ? tool : (tool as { name?: string } | undefined)?.name;
  return `tool “${name || `#${Number(match[1]) + 1}`}”${match[2] ? `, ${match[2]}` : ""}: ${match[3]}`;
}
