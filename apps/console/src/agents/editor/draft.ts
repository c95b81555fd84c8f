import type { Agent } from "@agent-platform/sdk";
import { type GuardrailDraft, guardrailDraftOf } from "./guardrail-draft.js";

/** A parameter of a custom tool, as the form edits it (one row). */
export interface ParamDraft {
  name: string;
  type: "string" | "number" | "integer" | "boolean" | "array" | "object";
  description: string;
  required: boolean;
}

export interface CustomToolDraft {
  name: string;
  description: string;
  params: ParamDraft[];
  /** The schema as JSON text when it is edited as JSON (a schema the rows cannot show, or by choice). */
  schemaJson?: string;
}

export interface ModelDraft {
  /** `<provider>/<model-id>` */
  id: string;
  temperature: string;
  maxOutputTokens: string;
  effort: "" | "low" | "medium" | "high";
  contextWindow: string;
}

/** The agent form's state: every field as a person edits it, none of it JSON but a custom tool's schema on request. */
export interface AgentDraft {
  name: string;
  description: string;
  model: ModelDraft;
  system: string;
  builtins: string[];
  custom: CustomToolDraft[];
  permissions: { tool: string; policy: "always_allow" | "always_ask" }[];
  metadata: { key: string; value: string }[];
  guardrails: GuardrailDraft[];
}

type Schema = {
  type?: string;
  properties?: Record<string, { type?: string; description?: string }>;
  required?: string[];
};
const PARAM_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

/** The rows of a flat object schema, or undefined when the schema says more than rows can (nested, enums…). */
export function paramsOf(schema: Schema): ParamDraft[] | undefined {
  const properties = Object.entries(schema.properties ?? {});
  const simple = properties.every(
    ([, p]) =>
      typeof p === "object" &&
      PARAM_TYPES.has(p.type ?? "") &&
      Object.keys(p).every((key) => key === "type" || key === "description"),
  );
  const known = Object.keys(schema).every((key) => ["type", "properties", "required"].includes(key));
  if (!simple || !known) return undefined;
  return properties.map(([name, p]) => ({
    name,
    type: p.type as ParamDraft["type"],
    description: p.description ?? "",
    required: schema.required?.includes(name) ?? false,
  }));
}

export function schemaOf(params: readonly ParamDraft[]): Record<string, unknown> {
  const named = params.filter((p) => p.name.trim());
  return {
    type: "object",
    properties: Object.fromEntries(
      named.map((p) => [
        p.name.trim(),
        { type: p.type, ...(p.description.trim() ? { description: p.description.trim() } : {}) },
      ]),
    ),
    ...(named.some((p) => p.required) ? { required: named.filter((p) => p.required).map((p) => p.name.trim()) } : {}),
  };
}

export function draftOf(agent: Agent | undefined): AgentDraft {
  const model = agent?.model ?? "builtin/echo";
  const object = typeof model === "string" ? undefined : model;
  const id =
    typeof model === "string"
      ? model
      : object?.provider && !object.id.includes("/")
        ? `${object.provider}/${object.id}`
        : (object?.id ?? "");
  return {
    name: agent?.name ?? "",
    description: agent?.description ?? "",
    model: {
      id,
      temperature: object?.temperature === undefined ? "" : String(object.temperature),
      maxOutputTokens: object?.maxOutputTokens === undefined ? "" : String(object.maxOutputTokens),
      effort: object?.reasoning?.effort ?? "",
      contextWindow: object?.contextWindow === undefined ? "" : String(object.contextWindow),
    },
    system: agent?.system ?? "",
    builtins: (agent?.tools ?? []).filter((t): t is Extract<typeof t, string> => typeof t === "string"),
    custom: (agent?.tools ?? []).flatMap((tool) => {
      if (typeof tool === "string") return [];
      const params = paramsOf(tool.inputSchema as Schema);
      return [
        {
          name: tool.name,
          description: tool.description,
          params: params ?? [],
          ...(params ? {} : { schemaJson: JSON.stringify(tool.inputSchema, null, 2) }),
        },
      ];
    }),
    permissions: Object.entries(agent?.toolPermissions ?? {}).map(([tool, policy]) => ({ tool, policy })),
    metadata: Object.entries(agent?.metadata ?? {}).map(([key, value]) => ({ key, value })),
    guardrails: (agent?.guardrails ?? []).map(guardrailDraftOf),
  };
}

/** The model as the API takes it: the string form unless a setting needs the object form. */
export function modelOf(draft: ModelDraft): string | Record<string, unknown> {
  const id = draft.id.trim();
  const settings = {
    ...(draft.temperature.trim() ? { temperature: Number(draft.temperature) } : {}),
    ...(draft.maxOutputTokens.trim() ? { maxOutputTokens: Number(draft.maxOutputTokens) } : {}),
    ...(draft.contextWindow.trim() ? { contextWindow: Number(draft.contextWindow) } : {}),
    ...(draft.effort ? { reasoning: { effort: draft.effort } } : {}),
  };
  return Object.keys(settings).length ? { id, ...settings } : id;
}

/** The tools array the API takes: the chosen built-ins, then the custom tools. Throws on a schema that is not JSON. */
export function toolsOf(draft: AgentDraft): unknown[] {
  return [
    ...draft.builtins,
    ...draft.custom.map((tool) => ({
      type: "custom",
      name: tool.name.trim(),
      description: tool.description.trim(),
      inputSchema: tool.schemaJson === undefined ? schemaOf(tool.params) : parseSchema(tool.name, tool.schemaJson),
    })),
  ];
}

function parseSchema(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SchemaError(
      `the input schema of ${name || "a custom tool"} is not valid JSON: ${(error as Error).message}`,
    );
  }
}

export class SchemaError extends Error {}
