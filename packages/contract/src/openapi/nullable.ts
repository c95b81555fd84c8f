import { isObject, type Json, type JsonObject } from "./json.js";

/**
 * OpenAPI 3.0 gives `nullable` a meaning only beside `type`. The Zod converter writes a bare `{ nullable: true }` for
 * `z.unknown()` / `z.any()` (any value, null included: the empty schema says that) and `nullable` beside `oneOf` for
 * nullable unions (there `null` becomes one more alternative, on the first member that has a type).
 * A nullable `enum` lists null.
 */
function fixNullable(node: JsonObject): JsonObject {
  // OpenAPI 3.0.3: `nullable` does not widen an `enum`; null must be listed to be valid.
  if (node.nullable === true && Array.isArray(node.enum) && !node.enum.includes(null)) {
    return { ...node, enum: [...node.enum, null] };
  }
  if (!("nullable" in node) || "type" in node) return node;
  const { nullable, ...rest } = node;
  const members = rest.oneOf ?? rest.anyOf;
  if (nullable !== true || !Array.isArray(members)) return rest;
  const index = members.findIndex((m) => isObject(m) && typeof m.type === "string");
  if (index < 0) return rest;
  const withNull = members.map((m, i) => (i === index && isObject(m) ? { ...m, nullable: true } : m));
  return rest.oneOf ? { ...rest, oneOf: withNull } : { ...rest, anyOf: withNull };
}

/**
 * A `z.union` takes the first member that parses, so a value may match several: that is `anyOf`. The converter writes
 * `oneOf`, which forbids matching two (a known log entry also matches the open `SessionEvent`). A discriminated union
 * (it has a `discriminator`) stays `oneOf`: its members exclude each other.
 */
function unionAsAnyOf(node: JsonObject): JsonObject {
  if (!Array.isArray(node.oneOf) || "discriminator" in node) return node;
  const { oneOf, ...rest } = node;
  return { ...rest, anyOf: oneOf };
}

/** Applies the 3.0 fixes to every schema object below `node` (examples are left as they are). */
export function normalizeSchema<T extends Json | undefined>(node: T): T {
  if (Array.isArray(node)) return node.map((n) => normalizeSchema(n)) as T;
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(unionAsAnyOf(fixNullable(node)))) {
    out[key] = key === "example" || key === "examples" || key === "default" ? value : normalizeSchema(value);
  }
  return out as T;
}
