import { ModelCallAborted, ModelCallError } from "./model-errors.js";
import { providerFetch } from "./provider-fetch.js";
import type { ProviderSettings } from "./providers.js";
import { DEFAULT_RETRY_POLICY, retryDelayMs } from "./retry-policy.js";

export const DEFAULT_MODERATION_MODEL = "omni-moderation-latest";
const OPENAI_URL = "https://api.openai.com/v1";

/** One text's classification by the `openai` provider's moderation endpoint (`POST /moderations`). */
export interface ModerationResult {
  /** The model that answered (the response's `model`, e.g. `omni-moderation-2024-09-26`). */
  model: string;
  flagged: boolean;
  categories: Record<string, boolean>;
  scores: Record<string, number>;
}

/**
 * Classifies a text with OpenAI's moderation endpoint (`OPENAI_BASE_URL`, `OPENAI_API_KEY`). Rate limits and server
 * errors are retried like model calls (honouring `Retry-After`); other refusals fail with the provider's message.
 * Moderation is free of charge and reports no tokens: the caller counts it as one model call.
 */
export async function moderate(
  settings: ProviderSettings,
  model: string,
  text: string,
  signal: AbortSignal,
): Promise<ModerationResult> {
  const { apiKey, baseURL } = settings.openai;
  if (!apiKey) {
    throw new ModelCallError("model.unavailable", 'Provider "openai" is not configured: set OPENAI_API_KEY');
  }
  const url = `${(baseURL ?? OPENAI_URL).replace(/\/+$/, "")}/moderations`;
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw new ModelCallAborted();
    let response: Response;
    try {
      response = await providerFetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model, input: text }),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new ModelCallAborted();
      if (attempt < DEFAULT_RETRY_POLICY.attempts) {
        await sleep(retryDelayMs(DEFAULT_RETRY_POLICY, attempt), signal);
        continue;
      }
      throw new ModelCallError("model.unavailable", `moderation: ${(error as Error).message}`, { cause: error });
    }
    const body = await response.text();
    if (response.ok) return parseResult(body);
    const retryable = response.status === 429 || response.status >= 500;
    if (retryable && attempt < DEFAULT_RETRY_POLICY.attempts) {
      const after = Number(response.headers.get("retry-after"));
      await sleep(
        retryDelayMs(DEFAULT_RETRY_POLICY, attempt, Number.isFinite(after) ? after * 1000 : undefined),
        signal,
      );
      continue;
    }
    const code =
      response.status === 429 ? "model.rate_limited" : retryable ? "model.unavailable" : "model.provider_error";
    throw new ModelCallError(code, `moderation: ${errorMessage(body, response.status)}`, { status: response.status });
  }
}

function parseResult(body: string): ModerationResult {
  const json = JSON.parse(body) as {
    model?: string;
    results?: { flagged?: boolean; categories?: Record<string, boolean>; category_scores?: Record<string, number> }[];
  };
  const result = json.results?.[0];
  if (!result || typeof result.flagged !== "boolean") {
    throw new ModelCallError("model.provider_error", "moderation: the response has no result");
  }
  return {
    model: json.model ?? "",
    flagged: result.flagged,
    categories: result.categories ?? {},
    scores: result.category_scores ?? {},
  };
}

function errorMessage(body: string, status: number): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: string } }).error?.message;
    if (message) return `${status} ${message}`;
  } catch {}
  return `HTTP ${status}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new ModelCallAborted());
      },
      { once: true },
    );
  });
}
