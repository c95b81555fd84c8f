import { ERROR_STATUS, type ErrorCode, type ErrorEnvelope } from "../common/errors.js";
import { schemaRef } from "./components.js";
import { errorCodesOf } from "./error-rules.js";
import { responseHeaders } from "./headers.js";
import type { JsonObject } from "./json.js";
import type { OperationFacts } from "./operation-facts.js";

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid request",
  401: "Missing, invalid or revoked API key",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict with the current state",
  413: "Request body too large",
  415: "Request body is not JSON",
  422: "A referenced resource or value cannot be used",
  429: "Rate limit exceeded",
  500: "Unexpected server error",
  503: "Temporarily unavailable",
};

const EXAMPLE_REQUEST_ID = "req_01JD3ZK8Q4W5X6Y7Z8A9B0C1D2";

function exampleEnvelope(code: ErrorCode): ErrorEnvelope {
  const [area, what] = code.split(".") as [string, string];
  const message = `${area.replaceAll("_", " ")}: ${what.replaceAll("_", " ")}`;
  if (code === "request.invalid") {
    const issues = [{ path: "body.name", message: "String must contain at least 1 character(s)" }];
    return {
      error: {
        code,
        message: "Invalid request: body.name: String must contain at least 1 character(s)",
        requestId: EXAMPLE_REQUEST_ID,
        details: { issues },
      },
    };
  }
  if (code === "budget.exceeded") {
    const details = { scope: "workspace", meter: "model_tokens", limit: 1000000, used: 1000250 };
    return { error: { code, message: "Budget exceeded", requestId: EXAMPLE_REQUEST_ID, details } };
  }
  return { error: { code, message: message[0]!.toUpperCase() + message.slice(1), requestId: EXAMPLE_REQUEST_ID } };
}

/** One response per error status the operation can return, listing its codes (also as `x-error-codes`). */
export function errorResponses(op: OperationFacts): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? "Error"}. Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      headers: responseHeaders(status, op.mutating),
      content: {
        "application/json": {
          schema: schemaRef("ErrorEnvelope"),
          examples: Object.fromEntries(
            codes.map((code) => [code, { summary: code, value: exampleEnvelope(code) as unknown as JsonObject }]),
          ),
        },
      },
      "x-error-codes": codes,
    };
  }
  return out;
}
