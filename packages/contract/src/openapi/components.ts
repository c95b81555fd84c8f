import { canonical, isObject, type Json, type JsonObject, omit } from "./json.js";
import { toJsonSchema } from "./json-schema.js";
import { normalizeSchema } from "./nullable.js";
import { COMPONENT_SCHEMAS, registered } from "./schema-registry.js";

/** Keys that may differ where a model is used (`.describe()`, `.nullable()` on the use) without making it another model. */
const USE_SITE_KEYS = ["description", "nullable"] as const;

export const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** Each registered model as JSON Schema, and the lookup from a subschema's canonical text to the model's name. */
export function registeredComponents(): { schemas: Record<string, JsonObject>; byShape: Map<string, string> } {
  const schemas: Record<string, JsonObject> = {};
  const byShape = new Map<string, string>();
  for (const [name, entry] of Object.entries(COMPONENT_SCHEMAS)) {
    const { schema, io } = registered(entry);
    const json = normalizeSchema(toJsonSchema(schema, io));
    const shape = canonical(omit(json, USE_SITE_KEYS));
    const other = byShape.get(shape);
    if (other) throw new Error(`OpenAPI models ${other} and ${name} have the same shape: register one of them`);
    byShape.set(shape, name);
    schemas[name] = json;
  }
  return { schemas, byShape };
}

/** The reference that replaces `node`, keeping what the use site adds (its own description, nullability). */
function referenceTo(name: string, node: JsonObject, model: JsonObject): JsonObject | undefined {
  const description = node.description !== model.description ? node.description : undefined;
  if (node.nullable === true) {
    // OpenAPI 3.0: `nullable` needs a `type` beside it; a union model has none and stays inline.
    if (typeof model.type !== "string") return undefined;
    return { type: model.type, nullable: true, allOf: [schemaRef(name)], ...(description ? { description } : {}) };
  }
  return description ? { description, allOf: [schemaRef(name)] } : schemaRef(name);
}

/**
 * Replaces, top-down, every subschema deep-equal to a registered model by a `$ref` to it. Only schema positions are
 * looked at (`schema`, `items`, `properties.*`, compositions…), never examples.
 */
export function replaceWithRefs(
  node: Json | undefined,
  byShape: Map<string, string>,
  models: Record<string, JsonObject>,
  skipRoot = false,
): Json | undefined {
  if (Array.isArray(node)) return node.map((n) => replaceWithRefs(n, byShape, models) as Json);
  if (!isObject(node)) return node;
  if (!skipRoot && (node.type !== undefined || node.oneOf || node.anyOf || node.allOf)) {
    const name = byShape.get(canonical(omit(node, USE_SITE_KEYS)));
    if (name) {
      const ref = referenceTo(name, node, models[name]!);
      if (ref) return ref;
    }
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples" || key === "default" || key === "enum") out[key] = value;
    else out[key] = replaceWithRefs(value, byShape, models) as Json;
  }
  return out;
}
