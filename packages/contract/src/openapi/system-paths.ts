import { schemaRef } from "./components.js";
import type { JsonObject } from "./json.js";

/** Routes served beside the /v1 router (no key, no envelope), so that probes and tools find them in the document. */
export const SYSTEM_TAG = {
  name: "system",
  description: "Probes and this document: no API key, plain JSON (not the error envelope).",
};

function get(operationId: string, summary: string, description: string, responses: JsonObject): JsonObject {
  return { get: { operationId, tags: [SYSTEM_TAG.name], summary, description, security: [], responses } };
}

const json = (description: string, schema: JsonObject, example: JsonObject): JsonObject => ({
  description,
  content: { "application/json": { schema, example } },
});

export function systemPaths(): Record<string, JsonObject> {
  return {
    "/healthz": get(
      "system.health",
      "Liveness: the process is up",
      "Answers without touching the database; use it as a liveness probe.",
      { "200": json("The process is up", schemaRef("Health"), { status: "ok" }) },
    ),
    "/readyz": get(
      "system.readiness",
      "Readiness: the database answers and the process's background machinery (notification listener, job runner) works",
      "Use it as a readiness probe: 503 while the database cannot be reached, and after an outage until the process has reconnected and resynchronised (`checks` says which part is not ready).",
      {
        "200": json("Ready", schemaRef("Readiness"), {
          status: "ready",
          checks: { database: "ok", listener: "ok" },
        }),
        "503": json("Not ready", schemaRef("Readiness"), {
          status: "unavailable",
          checks: { database: "unreachable", listener: "reconnecting", jobs: "cannot reach the database; retrying" },
        }),
      },
    ),
    "/v1/openapi.json": get(
      "system.openapi",
      "This OpenAPI document",
      "The document the interactive reference at `/docs` reads; the same as `packages/contract/openapi.json`.",
      {
        "200": json(
          "OpenAPI 3.0 document",
          { type: "object", additionalProperties: true },
          { openapi: "3.0.2", info: { title: "Agent Platform API" } },
        ),
      },
    ),
  };
}
