import { sample } from "openapi-sampler";
import { isObject, type Json, type JsonObject } from "../json.js";
import { HAND_WRITTEN_EXAMPLES } from "./hand-written.js";
import { pathParameterExample } from "./path-examples.js";
import { addPatternExamples } from "./pattern-examples.js";

type Schema = Parameters<typeof sample>[0];

/** A value of the schema: required properties only, patterns honoured, references resolved in the document. */
function sampleOf(schema: Json | undefined, doc: JsonObject, includeOptional = false): Json {
  return sample(
    schema as Schema,
    { skipNonRequired: !includeOptional, enablePatterns: true, quiet: true },
    doc,
  ) as Json;
}

/** `base` with `over` laid on top: objects merge key by key, anything else (arrays included) is replaced. */
function overlay(base: Json, over: Json | undefined): Json {
  if (over === undefined) return base;
  if (!isObject(base) || !isObject(over)) return over;
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = overlay(base[key] ?? null, value);
  return out;
}

function jsonMedia(holder: JsonObject | undefined): JsonObject | undefined {
  const content = holder?.content;
  const media = isObject(content) ? content["application/json"] : undefined;
  return isObject(media) ? media : undefined;
}

/**
 * Every operation gets a request example (its body, else its parameters) and an example per success response: the
 * hand-written ones of examples/hand-written.ts laid over a value sampled from the schema, so they stay complete when
 * the schema grows. Error responses carry one example per code already.
 */
export function addExamples(doc: JsonObject & { paths: Record<string, Record<string, JsonObject>> }): void {
  addPatternExamples(doc.components);
  addPatternExamples(doc.paths);
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      const own = HAND_WRITTEN_EXAMPLES[String(operation.operationId)] ?? {};
      for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
        if (parameter.$ref || parameter.example !== undefined) continue;
        const name = String(parameter.name);
        const tag = String((operation.tags as string[] | undefined)?.[0]);
        parameter.example =
          own.parameters?.[name] ??
          (parameter.in === "path" ? pathParameterExample(name, tag) : undefined) ??
          sampleOf(parameter.schema, doc);
      }
      const body = jsonMedia(operation.requestBody as JsonObject | undefined);
      if (body) body.example = overlay(sampleOf(body.schema, doc), own.request);
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
        const media = jsonMedia(response);
        if (!media || Number(status) >= 400 || media.example !== undefined) continue;
        // Hand-written responses are complete where it matters: only the required fields are sampled under them.
        media.example = overlay(sampleOf(media.schema, doc, own.response === undefined), own.response);
      }
    }
  }
}
