import { isObject, type Json, type JsonObject, pascalCase } from "./json.js";

const REF_PREFIX = "#/components/schemas/";

/** The one value a union member pins its discriminator property to (`type: z.literal("…")` → `enum: ["…"]`). */
function discriminatorValue(member: JsonObject, property: string): string | undefined {
  const prop = isObject(member.properties) ? member.properties[property] : undefined;
  const values = isObject(prop) ? prop.enum : undefined;
  return Array.isArray(values) && values.length === 1 && typeof values[0] === "string" ? values[0] : undefined;
}

/**
 * A discriminator is only meaningful over named members: inline members of a union found inside model `owner` are
 * hoisted to `components.schemas` as `<Value><Owner>` (or the model of that shape already registered), and the
 * discriminator gets the explicit value → `$ref` mapping that code generators read.
 */
function fixUnion(node: JsonObject, owner: string, schemas: Record<string, JsonObject>): JsonObject {
  const discriminator = node.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== "string" || !Array.isArray(node.oneOf)) {
    return node;
  }
  const property = discriminator.propertyName;
  const mapping: Record<string, string> = {};
  const oneOf = node.oneOf.map((member) => {
    if (!isObject(member)) return member;
    if (typeof member.$ref === "string") {
      const value = discriminatorValue(schemas[member.$ref.slice(REF_PREFIX.length)] ?? {}, property);
      if (value) mapping[value] = member.$ref;
      return member;
    }
    const value = discriminatorValue(member, property);
    if (!value) return member;
    let name = `${pascalCase(value)}${owner}`;
    while (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(member)) name = `${name}Variant`;
    schemas[name] = member;
    mapping[value] = `${REF_PREFIX}${name}`;
    return { $ref: `${REF_PREFIX}${name}` };
  });
  return { ...node, oneOf, discriminator: { propertyName: property, mapping } };
}

function walk(node: Json | undefined, owner: string, schemas: Record<string, JsonObject>): Json | undefined {
  if (Array.isArray(node)) return node.map((n) => walk(n, owner, schemas) as Json);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === "example" || key === "examples" ? value : walk(value, owner, schemas);
  }
  return fixUnion(out, owner, schemas);
}

/** Fixes every discriminated union of the models (new hoisted members are added to `schemas`). */
export function nameUnionMembers(schemas: Record<string, JsonObject>): void {
  for (const name of Object.keys(schemas)) schemas[name] = walk(schemas[name], name, schemas) as JsonObject;
}

/** Unions left inline in operations: named after the operation (`<Value><OperationId>`). */
export function nameInlineUnionMembers(
  node: JsonObject,
  owner: string,
  schemas: Record<string, JsonObject>,
): JsonObject {
  return walk(node, pascalCase(owner), schemas) as JsonObject;
}
