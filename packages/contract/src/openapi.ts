import type { AppRoute } from "@ts-rest/core";
import { generateOpenApi } from "@ts-rest/open-api";
import { contract } from "./contract.js";

export const API_VERSION = "0.1.0";

type OpenApiDocument = ReturnType<typeof generateOpenApi>;

const PUBLIC_OPERATIONS = new Set<string>(["skills.downloadFile"]);

interface OtherResponse {
  contentType: string;
  body: { description?: string };
}

/**
 * ts-rest's generator leaves non-JSON responses (`c.otherResponse`: the SSE stream, file downloads) without content;
 * document their media type and description.
 */
function withOtherContentTypes(responses: Record<string, unknown>, route: AppRoute): Record<string, unknown> {
  const out = { ...responses };
  for (const [status, response] of Object.entries(route.responses)) {
    const other = response as Partial<OtherResponse>;
    if (typeof other?.contentType !== "string") continue;
    const description = other.body?.description ?? `${other.contentType} body`;
    out[status] = {
      description,
      content: { [other.contentType]: { schema: { type: "string", format: "binary", description } } },
    };
  }
  return out;
}

/** The OpenAPI 3 document of every /v1 route, generated from the contract. */
export function buildOpenApiDocument(): OpenApiDocument {
  return generateOpenApi(
    contract,
    {
      info: {
        title: "Agent Platform API",
        version: API_VERSION,
        description:
          "HTTP/JSON API for configuring and running AI agents: agents, sessions, automations, experiments and skills. " +
          "Every request carries `Authorization: Bearer <API_KEY>`. Errors use one envelope: " +
          "`{ error: { code, message, requestId, details? } }`.",
      },
      servers: [{ url: "/" }],
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "API key" } },
      },
      security: [{ bearerAuth: [] }],
    },
    {
      setOperationId: "concatenated-path",
      operationMapper: (operation, route) => {
        const id = operation.operationId as string | undefined;
        const pub = id !== undefined && PUBLIC_OPERATIONS.has(id);
        const tag = id?.split(".")[0];
        return {
          ...operation,
          responses: withOtherContentTypes(operation.responses, route),
          tags: tag ? [tag] : operation.tags,
          description: operation.description ?? route.description ?? route.summary,
          ...(pub ? { security: [] } : {}),
        };
      },
    },
  );
}
