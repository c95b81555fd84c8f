import { isObject, type JsonObject } from "./json.js";

/**
 * ts-rest leaves every request body optional. A body is required unless the server also accepts none: an object schema
 * without required properties (`{}` is what an absent body is read as, e.g. an archive's empty body) is optional.
 */
export function withRequiredFlag(requestBody: unknown): unknown {
  if (!isObject(requestBody) || !isObject(requestBody.content)) return requestBody;
  const media = requestBody.content["application/json"];
  const schema = isObject(media) ? media.schema : undefined;
  const optional =
    isObject(schema) && schema.type === "object" && !(Array.isArray(schema.required) && schema.required.length > 0);
  return { ...(requestBody as JsonObject), required: !optional };
}
