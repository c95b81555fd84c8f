import { randomBytes } from "node:crypto";
import http from "node:http";

/**
 * OpenAI's moderation endpoint (`POST /v1/moderations`) on loopback, as strict as the real one where tests can tell:
 * a bearer key is required (401 `invalid_api_key`), `input` is required and is a string, an array of strings or an
 * array of `{ type: "text", text }` / `{ type: "image_url", image_url: { url } }` parts (images only for `omni-`
 * models), an unknown model is 404 `model_not_found`, unknown fields are refused, and a requests-per-minute limit
 * answers 429 `rate_limit_exceeded` with the `x-ratelimit-*` headers. Each input gets a result with every omni
 * category (`categories`, `category_scores`, `category_applied_input_types`), scored by keyword rules so that tests
 * can decide what is flagged. Moderation reports no usage, like the real API.
 */

export const OMNI_CATEGORIES = [
  "harassment",
  "harassment/threatening",
  "hate",
  "hate/threatening",
  "illicit",
  "illicit/violent",
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
  "sexual",
  "sexual/minors",
  "violence",
  "violence/graphic",
] as const;

const MODELS: Record<string, { answers: string; images: boolean }> = {
  "omni-moderation-latest": { answers: "omni-moderation-2024-09-26", images: true },
  "omni-moderation-2024-09-26": { answers: "omni-moderation-2024-09-26", images: true },
  "text-moderation-latest": { answers: "text-moderation-007", images: false },
  "text-moderation-stable": { answers: "text-moderation-007", images: false },
};

/** Default rules: a pattern in the text raises these categories to these scores. */
const RULES: { pattern: RegExp; scores: Partial<Record<(typeof OMNI_CATEGORIES)[number], number>> }[] = [
  { pattern: /\b(?:kill|murder|stab)\b/i, scores: { violence: 0.93, "harassment/threatening": 0.71 } },
  { pattern: /\bi hate (?:you|them)\b/i, scores: { harassment: 0.82, hate: 0.41 } },
  { pattern: /\bhurt myself\b/i, scores: { "self-harm": 0.88, "self-harm/intent": 0.79 } },
];

export interface ModerationRequestRecord {
  headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are inspected freely by tests
  body: any;
  status: number;
}

export interface FakeModeration {
  /** Base URL including `/v1` (what `OPENAI_BASE_URL` takes). */
  url: string;
  key: string;
  requests: ModerationRequestRecord[];
  /** Requests per minute before 429 (default: no limit). */
  limitPerMinute(limit: number | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

function error(status: number, message: string, type: string, code: string | null, param: string | null = null) {
  return { status, body: { error: { message, type, param, code } } };
}

function classify(text: string) {
  const scores = Object.fromEntries(OMNI_CATEGORIES.map((c) => [c, 0.0001])) as Record<string, number>;
  for (const rule of RULES) {
    if (!rule.pattern.test(text)) continue;
    for (const [category, score] of Object.entries(rule.scores)) scores[category] = Math.max(scores[category]!, score);
  }
  const categories = Object.fromEntries(OMNI_CATEGORIES.map((c) => [c, scores[c]! >= 0.5]));
  return {
    flagged: Object.values(categories).some(Boolean),
    categories,
    category_scores: scores,
    category_applied_input_types: Object.fromEntries(OMNI_CATEGORIES.map((c) => [c, ["text"]])),
  };
}

type Input = string | { type: string; text?: string; image_url?: { url?: string } };

function validate(body: unknown): { inputs: Input[]; model: string } | { status: number; body: unknown } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return error(400, "We could not parse the JSON body of your request.", "invalid_request_error", null);
  }
  const { input, model = "omni-moderation-latest", ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown) {
    return error(400, `Unrecognized request argument supplied: ${unknown}`, "invalid_request_error", null);
  }
  if (input === undefined) return error(400, "'input' is a required property", "invalid_request_error", null);
  if (typeof model !== "string" || !MODELS[model]) {
    return error(
      404,
      `The model \`${String(model)}\` does not exist`,
      "invalid_request_error",
      "model_not_found",
      "model",
    );
  }
  const inputs = typeof input === "string" ? [input] : Array.isArray(input) ? (input as Input[]) : null;
  if (!inputs || inputs.length === 0) {
    return error(
      400,
      "Invalid type for 'input': expected a string or an array.",
      "invalid_request_error",
      null,
      "input",
    );
  }
  for (const item of inputs) {
    if (typeof item === "string") continue;
    if (item?.type === "text" && typeof item.text === "string") continue;
    if (item?.type === "image_url" && typeof item.image_url?.url === "string") {
      if (!MODELS[model]!.images) {
        return error(400, `Model ${model} does not support image inputs.`, "invalid_request_error", null, "input");
      }
      continue;
    }
    return error(400, "Invalid value for 'input'.", "invalid_request_error", null, "input");
  }
  return { inputs, model };
}

export async function startFakeModeration(): Promise<FakeModeration> {
  const key = `sk-fake-${randomBytes(8).toString("hex")}`;
  const requests: ModerationRequestRecord[] = [];
  let limit: number | undefined;
  let window: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(payload));
      };
      const record: ModerationRequestRecord = { headers: req.headers, body: undefined, status: 0 };
      requests.push(record);
      const answer = (status: number, payload: unknown, headers?: Record<string, string>) => {
        record.status = status;
        send(status, payload, headers);
      };
      if (req.method !== "POST" || req.url !== "/v1/moderations") {
        return answer(404, error(404, `Invalid URL (${req.method} ${req.url})`, "invalid_request_error", null).body);
      }
      if (req.headers.authorization !== `Bearer ${key}`) {
        const wrong = error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
        return answer(wrong.status, wrong.body);
      }
      try {
        record.body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        const bad = error(400, "We could not parse the JSON body of your request.", "invalid_request_error", null);
        return answer(bad.status, bad.body);
      }
      const now = Date.now();
      window = window.filter((at) => at > now - 60_000);
      if (limit !== undefined && window.length >= limit) {
        const limited = error(
          429,
          `Rate limit reached for omni-moderation-latest on requests per min (RPM): Limit ${limit}, Used ${window.length}, Requested 1.`,
          "requests",
          "rate_limit_exceeded",
        );
        return answer(limited.status, limited.body, {
          "x-ratelimit-limit-requests": String(limit),
          "x-ratelimit-remaining-requests": "0",
          "x-ratelimit-reset-requests": "1s",
          "retry-after": "1",
        });
      }
      window.push(now);
      const checked = validate(record.body);
      if ("status" in checked) return answer(checked.status, checked.body);
      const texts = checked.inputs.map((i) => (typeof i === "string" ? i : (i.text ?? "")));
      answer(200, {
        id: `modr-${randomBytes(12).toString("hex")}`,
        model: MODELS[checked.model]!.answers,
        results: texts.map(classify),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    key,
    requests,
    limitPerMinute: (value) => {
      limit = value;
      window = [];
    },
    reset: () => {
      requests.length = 0;
      limit = undefined;
      window = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
