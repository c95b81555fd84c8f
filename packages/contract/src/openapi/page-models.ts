import { schemaRef } from "./components.js";
import { canonical, isObject, type JsonObject } from "./json.js";

const REF_PREFIX = "#/components/schemas/";

/** `{ data: Item[], hasMore, nextCursor }` over a named model: the item's name, else undefined. */
function pageItem(schema: JsonObject): string | undefined {
  const properties = schema.properties;
  if (!isObject(properties) || !isObject(properties.data) || !("nextCursor" in properties)) return undefined;
  const items = properties.data.items;
  return isObject(items) && typeof items.$ref === "string" ? items.$ref.slice(REF_PREFIX.length) : undefined;
}

/** Cursor pages of a named model left inline become `<Item>Page` models (or the registered page of that shape). */
export function namePages(operation: JsonObject, schemas: Record<string, JsonObject>): void {
  for (const response of Object.values((operation.responses ?? {}) as Record<string, JsonObject>)) {
    const media = isObject(response.content) ? response.content["application/json"] : undefined;
    if (!isObject(media) || !isObject(media.schema)) continue;
    const item = pageItem(media.schema);
    if (!item) continue;
    const name = `${item}Page`;
    if (schemas[name] && canonical(schemas[name]) !== canonical(media.schema)) continue;
    schemas[name] = media.schema;
    media.schema = schemaRef(name);
  }
}
