import { isObject, type JsonObject } from "./json.js";

/** `i`, `m`, `s` at most once each, in any order, without a backreference (portable to every regex engine). */
const DISTINCT_FLAGS = "^(i?m?s?|i?s?m?|m?i?s?|m?s?i?|s?i?m?|s?m?i?)$";

function property(schemas: Record<string, JsonObject>, model: string, name: string): JsonObject {
  const properties = schemas[model]?.properties;
  const found = isObject(properties) ? properties[name] : undefined;
  if (!isObject(found)) throw new Error(`OpenAPI rules: ${model}.${name} is not in the document`);
  return found;
}

/**
 * Rules the server checks with Zod refinements, which the generated schemas do not carry, stated in JSON Schema so
 * that validation built from the document refuses what the server refuses. (Scorers of distinct `type`s cannot be
 * said in JSON Schema: the list's description says it.)
 */
export function addSchemaRules(schemas: Record<string, JsonObject>): void {
  for (const model of ["CreateWebhookRequest", "UpdateWebhookRequest"])
    property(schemas, model, "events").uniqueItems = true;
  property(schemas, "RegexScorer", "flags").pattern = DISTINCT_FLAGS;
  for (const model of ["CreateServerlessToolRequest", "PublishServerlessToolRequest"]) {
    Object.assign(property(schemas, model, "inputSchema"), {
      properties: { type: { type: "string", enum: ["object"] } },
      required: ["type"],
    });
  }
  schemas.CreateBudgetRequest!.oneOf = [
    {
      properties: { scope: { type: "string", enum: ["workspace"] } },
      not: { properties: { agentId: { type: "string" } }, required: ["agentId"] },
    },
    {
      properties: { scope: { type: "string", enum: ["agent"] }, agentId: { type: "string" } },
      required: ["agentId"],
    },
  ];
}
