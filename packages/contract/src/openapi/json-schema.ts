import { generateSchema } from "@anatine/zod-openapi";
import type { ZodTypeAny } from "zod";
import type { JsonObject } from "./json.js";

/**
 * The same converter @ts-rest/open-api uses, so a registered schema's JSON is deep-equal to where it appears inline.
 * `output` is how responses are converted (defaults applied, transforms' results), `input` how request bodies are.
 */
export function toJsonSchema(schema: ZodTypeAny, io: "input" | "output"): JsonObject {
  return JSON.parse(JSON.stringify(generateSchema(schema, io === "output"))) as JsonObject;
}
