import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback server speaking OpenAI's embeddings API (`POST /v1/embeddings`) as strictly as the real one: a bearer
 * key, `model` and `input` (a string or 1–2,048 non-empty strings) required, at most 8,192 tokens per input and
 * 300,000 per request, `dimensions` only for `text-embedding-3-*` models (and at most their length), `encoding_format`
 * `float` or `base64`, unknown models 404 `model_not_found`, errors in OpenAI's envelope, `usage.prompt_tokens`, and
 * 429s with the rate-limit headers and body OpenAI sends. Tokens are counted at ~4 characters each.
 *
 * Its vectors stand for a model that knows meaning: words are mapped to concepts by a small thesaurus ("money back"
 * and "refund" are one concept), other words to themselves (crudely stemmed), and — like real embedding models, which
 * blur identifiers into sub-word pieces — tokens with digits ("E4012", "XR-220") are not represented at all.
 */
export interface FakeEmbeddings {
  url: string;
  requests: { model: string; inputs: number; tokens: number; dimensions?: number; status: number }[];
  /** The next `count` requests answer 429 (with `retry-after: retryAfterS`). */
  rateLimit(count: number, retryAfterS?: number): void;
  /** The next `count` requests answer this status with an OpenAI error body. */
  failNext(count: number, status: number, message?: string): void;
  /** Each request waits this long before answering (a slow provider). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

const MODELS: Record<string, { dimensions: number; shortenable: boolean }> = {
  "text-embedding-3-small": { dimensions: 1536, shortenable: true },
  "text-embedding-3-large": { dimensions: 3072, shortenable: true },
  "text-embedding-ada-002": { dimensions: 1536, shortenable: false },
};
export const FAKE_EMBEDDING_KEY = "sk-fake-embeddings";

const THESAURUS: Record<string, string[]> = {
  refund: ["refund", "refunds", "refunded", "money", "reimburse", "reimbursed", "reimbursement", "repay", "repaid"],
  ship: [
    "shipping",
    "ship",
    "ships",
    "shipped",
    "delivery",
    "deliver",
    "delivered",
    "package",
    "parcel",
    "arrive",
    "arrives",
    "arrival",
  ],
  time: ["days", "long", "until", "weeks", "soon", "quickly"],
  password: ["password", "credentials", "login", "sign", "forgot", "forgotten", "locked"],
  cancel: ["cancel", "cancelling", "cancellation", "stop", "terminate", "quit"],
  renew: ["renew", "renewing", "renewal", "renews", "automatically", "recurring"],
  subscription: ["subscription", "plan", "membership"],
  export: ["export", "download", "spreadsheet", "csv", "backup"],
  data: ["data", "information", "records"],
  warranty: [
    "warranty",
    "covered",
    "coverage",
    "guarantee",
    "broke",
    "broken",
    "defect",
    "defects",
    "faulty",
    "repair",
  ],
  device: ["device", "hardware", "unit", "machine"],
  contact: ["contact", "talk", "human", "person", "agent", "phone", "call", "chat", "reach"],
  error: ["error", "errors", "failure", "problem", "declined", "decline", "fails", "failed"],
  card: ["card", "payment", "bank", "issuer", "issuing"],
  security: ["authentication", "secure", "security", "verification", "factor"],
  price: ["price", "pricing", "cost", "costs", "expensive", "cheap", "fee", "fees"],
  battery: ["battery", "batteries", "charge", "charging", "power"],
  replace: ["replace", "replacement", "swap", "change"],
};
const CONCEPT = new Map<string, string>();
for (const [concept, words] of Object.entries(THESAURUS)) for (const w of words) CONCEPT.set(w, concept);
const STOP = new Set(
  "a an and are as at be can could do does for from get got how i if in is it its me my of on or our the this to was we what when where which who will with you your".split(
    " ",
  ),
);

function hash(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fake model's vector of a text (unit length; zeros when nothing in it is represented). */
export function fakeSemanticVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of text.toLowerCase().match(/[\p{L}\p{N}-]+/gu) ?? []) {
    if (/\d/.test(token) || STOP.has(token)) continue;
    const feature = CONCEPT.get(token) ?? `w:${token.replace(/(es|s)$/, "")}`;
    const weight = CONCEPT.has(token) ? 1 : 0.6;
    vector[hash(feature, 1) % dimensions]! += hash(feature, 2) & 1 ? weight : -weight;
  }
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0));
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}

function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function invalid(response: ServerResponse, message: string, param: string | null = null): void {
  send(response, 400, { error: { message, type: "invalid_request_error", param, code: null } });
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const requests: FakeEmbeddings["requests"] = [];
  const failures: { status: number; message?: string; retryAfterS?: number }[] = [];
  let delayMs = 0;
  const server = createServer(async (request, response) => {
    try {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      if (request.method !== "POST" || path !== "/v1/embeddings") {
        return send(response, 404, {
          error: {
            message: `Invalid URL (${request.method} ${path})`,
            type: "invalid_request_error",
            param: null,
            code: null,
          },
        });
      }
      if (request.headers.authorization !== `Bearer ${FAKE_EMBEDDING_KEY}`) {
        return send(response, 401, {
          error: {
            message: "Incorrect API key provided.",
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        });
      }
      let body: Record<string, unknown>;
      try {
        body = (await readJson(request)) as Record<string, unknown>;
      } catch {
        return invalid(response, "We could not parse the JSON body of your request.");
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const failure = failures.shift();
      if (failure) {
        requests.push({ model: String(body?.model), inputs: 0, tokens: 0, status: failure.status });
        if (failure.status === 429) {
          return send(
            response,
            429,
            {
              error: {
                message: `Rate limit reached for ${String(body?.model)} in organization org-fake on requests per min (RPM): Limit 3000, Used 3000, Requested 1. Please try again in ${failure.retryAfterS ?? 1}s.`,
                type: "requests",
                param: null,
                code: "rate_limit_exceeded",
              },
            },
            {
              "retry-after": String(failure.retryAfterS ?? 1),
              "x-ratelimit-limit-requests": "3000",
              "x-ratelimit-remaining-requests": "0",
              "x-ratelimit-reset-requests": `${failure.retryAfterS ?? 1}s`,
              "x-ratelimit-limit-tokens": "1000000",
              "x-ratelimit-remaining-tokens": "999000",
              "x-ratelimit-reset-tokens": "60ms",
            },
          );
        }
        return send(response, failure.status, {
          error: {
            message: failure.message ?? "The server had an error while processing your request.",
            type: failure.status >= 500 ? "server_error" : "invalid_request_error",
            param: null,
            code: null,
          },
        });
      }
      if (!body || typeof body !== "object") return invalid(response, "Invalid body: expected a JSON object.");
      const model = body.model;
      if (typeof model !== "string") return invalid(response, "you must provide a model parameter", "model");
      const info = MODELS[model];
      if (!info) {
        return send(response, 404, {
          error: {
            message: `The model \`${model}\` does not exist or you do not have access to it.`,
            type: "invalid_request_error",
            param: null,
            code: "model_not_found",
          },
        });
      }
      const input = body.input;
      const inputs = typeof input === "string" ? [input] : input;
      if (!Array.isArray(inputs) || inputs.length === 0 || inputs.some((i) => typeof i !== "string")) {
        return invalid(
          response,
          "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
          "input",
        );
      }
      if (inputs.length > 2048) {
        return invalid(
          response,
          `'$.input' is too long. Expected an array with maximum length 2048, but got an array with length ${inputs.length} instead.`,
          "input",
        );
      }
      if (inputs.some((i) => (i as string).length === 0)) {
        return invalid(
          response,
          "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
          "input",
        );
      }
      for (const text of inputs as string[]) {
        if (tokens(text) > 8192) {
          return invalid(
            response,
            `This model's maximum context length is 8192 tokens, however you requested ${tokens(text)} tokens (${tokens(text)} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`,
          );
        }
      }
      const total = (inputs as string[]).reduce((n, text) => n + tokens(text), 0);
      if (total > 300_000) {
        return invalid(response, `Requested ${total} tokens, max 300000 tokens per request`, "input");
      }
      let dimensions = info.dimensions;
      if (body.dimensions !== undefined) {
        if (!info.shortenable)
          return invalid(response, "This model does not support specifying dimensions.", "dimensions");
        if (
          typeof body.dimensions !== "number" ||
          !Number.isInteger(body.dimensions) ||
          body.dimensions < 1 ||
          body.dimensions > info.dimensions
        ) {
          return invalid(
            response,
            `Invalid value for 'dimensions' = ${String(body.dimensions)}. Must be in [1, ${info.dimensions}].`,
            "dimensions",
          );
        }
        dimensions = body.dimensions;
      }
      const format = body.encoding_format ?? "float";
      if (format !== "float" && format !== "base64") {
        return invalid(
          response,
          `Invalid value for 'encoding_format': ${String(format)}. Supported values are: 'float' and 'base64'.`,
          "encoding_format",
        );
      }
      requests.push({
        model,
        inputs: inputs.length,
        tokens: total,
        ...(body.dimensions !== undefined ? { dimensions } : {}),
        status: 200,
      });
      send(response, 200, {
        object: "list",
        data: (inputs as string[]).map((text, index) => {
          const vector = fakeSemanticVector(text, dimensions);
          return {
            object: "embedding",
            index,
            embedding: format === "float" ? vector : Buffer.from(Float32Array.from(vector).buffer).toString("base64"),
          };
        }),
        model,
        usage: { prompt_tokens: total, total_tokens: total },
      });
    } catch (error) {
      if (!response.headersSent)
        send(response, 500, { error: { message: String(error), type: "server_error", param: null, code: null } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    rateLimit: (count, retryAfterS = 1) => {
      for (let i = 0; i < count; i++) failures.push({ status: 429, retryAfterS });
    },
    failNext: (count, status, message) => {
      for (let i = 0; i < count; i++) failures.push({ status, ...(message ? { message } : {}) });
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
