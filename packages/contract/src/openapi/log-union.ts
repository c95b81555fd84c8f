import { schemaRef } from "./components.js";
import { isObject, type Json, type JsonObject } from "./json.js";

const OPEN = "#/components/schemas/SessionLogEntry";

function replaceRefs(node: Json | undefined, from: string, to: JsonObject): Json | undefined {
  if (Array.isArray(node)) return node.map((item) => replaceRefs(item, from, to) ?? null);
  if (!isObject(node)) return node;
  if (node.$ref === from) return to;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replaceRefs(value, from, to)]));
}

/**
 * Log entries in the document are the known types only (`SessionLogEvent`, discriminated on `type`), so that a
 * generated client narrows `e.type === "agent.message"` to that entry's fields. The contract itself (the server's and
 * the SDK's reading) keeps admitting a type a newer server adds (`SessionLogEntry`, with the open `SessionEvent`); the
 * union's description tells clients to keep a default branch. Returns the document without `SessionLogEntry`.
 */
export function closeLogUnion<D extends JsonObject>(doc: D): D {
  const closed = replaceRefs(doc, OPEN, schemaRef("SessionLogEvent")) as D;
  const schemas = (closed.components as JsonObject).schemas as Record<string, JsonObject>;
  delete schemas.SessionLogEntry;
  // The open entry was only a member of that union.
  if (!JSON.stringify(closed).includes('"#/components/schemas/SessionEvent"')) delete schemas.SessionEvent;
  schemas.SessionLogEvent = {
    ...schemas.SessionLogEvent,
    description:
      "Session log entry, discriminated on `type`. A newer server may add entry types (with `seq`, `id`, `type`, " +
      "`createdAt` and their own fields): keep a default branch.",
  };
  return closed;
}
