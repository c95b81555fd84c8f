import type { AppRoute } from "@ts-rest/core";
import { generateOpenApi } from "@ts-rest/open-api";
import { contract } from "../contract.js";
import { registeredComponents, replaceWithRefs } from "./components.js";
import { operationDescription } from "./descriptions.js";
import { nameInlineUnionMembers, nameUnionMembers } from "./discriminators.js";
import { API_VERSION, documentInfo } from "./document-info.js";
import { errorResponses } from "./error-responses.js";
import { EVENT_STREAM_DESCRIPTION, eventStreamMedia } from "./event-stream.js";
import { addExamples } from "./examples/add-examples.js";
import { HEADERS, PARAMETERS, parameterRef, responseHeaders } from "./headers.js";
import { isObject, type Json, type JsonObject } from "./json.js";
import { closeLogUnion } from "./log-union.js";
import { normalizeSchema } from "./nullable.js";
import { operationFacts } from "./operation-facts.js";
import { namePages } from "./page-models.js";
import { withRequiredFlag } from "./request-body.js";
import { addSchemaRules } from "./schema-rules.js";
import { SYSTEM_TAG, systemPaths } from "./system-paths.js";

export { API_VERSION };

/** An OpenAPI 3.0 document as plain JSON. */
export type OpenApiDocument = JsonObject & { paths: Record<string, Record<string, JsonObject>> };

interface OtherResponse {
  contentType: string;
  body: { description?: string };
}

/** Success responses: ts-rest leaves non-JSON ones (`c.otherResponse`) without content; all get the common headers. */
function successResponses(responses: Record<string, JsonObject>, route: AppRoute, mutating: boolean) {
  const out: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(responses)) {
    // The router's common error responses (every status on every route) give way to errorResponses().
    if (Number(status) >= 400) continue;
    const other = route.responses[Number(status)] as Partial<OtherResponse> | undefined;
    let documented = response;
    if (other?.contentType === "text/event-stream") {
      documented = { description: EVENT_STREAM_DESCRIPTION, content: { "text/event-stream": eventStreamMedia() } };
    } else if (typeof other?.contentType === "string") {
      const description = other.body?.description ?? `${other.contentType} body`;
      documented = {
        description,
        content: { [other.contentType]: { schema: { type: "string", format: "binary", description } } },
      };
    } else if (documented.description === status) {
      documented = { ...documented, description: Number(status) === 204 ? "No content" : "Success" };
    }
    out[status] = { ...documented, headers: responseHeaders(Number(status), mutating) };
  }
  return out;
}

/** Header parameters the route declares in Zod (`last-event-id`) are the reusable ones of `components.parameters`. */
function withHeaderParameters(parameters: JsonObject[], mutating: boolean, authenticated: boolean): Json[] {
  const out: Json[] = parameters.map((p) =>
    p.in === "header" && String(p.name).toLowerCase() === "last-event-id" ? parameterRef("LastEventId") : p,
  );
  if (mutating && authenticated) out.push(parameterRef("IdempotencyKey"));
  return out;
}

function isPaginated(responses: Record<string, JsonObject>): boolean {
  const schema = (responses["200"]?.content as JsonObject | undefined)?.["application/json"];
  const properties = isObject(schema) && isObject(schema.schema) ? schema.schema.properties : undefined;
  return isObject(properties) && "nextCursor" in properties;
}

function generate(): OpenApiDocument {
  return generateOpenApi(contract, documentInfo() as Parameters<typeof generateOpenApi>[1], {
    setOperationId: "concatenated-path",
    operationMapper: (operation, route) => {
      const op = operationFacts(operation.operationId as string, route);
      const responses = operation.responses as Record<string, JsonObject>;
      return {
        ...operation,
        tags: [op.tag],
        description: operationDescription(op, route.description, isPaginated(responses)),
        ...(operation.requestBody ? { requestBody: withRequiredFlag(operation.requestBody) } : {}),
        parameters: withHeaderParameters((operation.parameters ?? []) as JsonObject[], op.mutating, op.authenticated),
        responses: { ...successResponses(responses, route, op.mutating), ...errorResponses(op) },
        ...(op.authenticated ? {} : { security: [] }),
      } as unknown as typeof operation;
    },
  }) as unknown as OpenApiDocument;
}

/** The OpenAPI 3 document of every /v1 route, generated from the contract: named models, errors, headers, examples. */
export function buildOpenApiDocument(): OpenApiDocument {
  const doc = normalizeSchema(generate() as JsonObject) as OpenApiDocument;
  const { schemas, byShape } = registeredComponents();
  for (const name of Object.keys(schemas))
    schemas[name] = replaceWithRefs(schemas[name], byShape, schemas, true) as JsonObject;
  nameUnionMembers(schemas);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const withRefs = replaceWithRefs(operation, byShape, schemas) as JsonObject;
      item[method] = nameInlineUnionMembers(withRefs, String(operation.operationId ?? `${method}${path}`), schemas);
      namePages(item[method]!, schemas);
    }
  }
  const components = doc.components as JsonObject;
  doc.components = {
    ...components,
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    parameters: PARAMETERS,
    headers: HEADERS,
  };
  addSchemaRules((doc.components as JsonObject).schemas as Record<string, JsonObject>);
  addExamples(doc);
  doc.paths = { ...systemPaths(), ...doc.paths } as OpenApiDocument["paths"];
  doc.tags = [...((doc.tags as JsonObject[]) ?? []), SYSTEM_TAG];
  const { openapi, info, servers, security, tags, paths, components: all, ...rest } = closeLogUnion(doc);
  return { openapi, info, servers, security, tags, paths, components: all, ...rest } as OpenApiDocument;
}
