export const MODEL_PROVIDERS = ["anthropic", "openai", "openai-compatible", "builtin"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const BUILTIN_MODEL_IDS = ["echo", "script"] as const;

/** US dollars per million tokens. */
export interface ModelPricing {
  input: number;
  output: number;
  cachedInputRead?: number;
  cachedInputWrite?: number;
}

/** A thinking budget (Anthropic) or a reasoning effort (OpenAI); exactly one. */
export interface ModelReasoning {
  budgetTokens?: number;
  effort?: "low" | "medium" | "high";
}

/** What the agent says its model can do, over the catalogue's capabilities. */
export interface ModelSpecCapabilities {
  /** Takes images (an `openai-compatible` vision model is then shown tool results' images in a user message). */
  images?: boolean;
}

export interface ModelSpec {
  reasoning?: ModelReasoning;
  provider: ModelProvider;
  modelId: string;
  temperature?: number;
  maxOutputTokens?: number;
  /** Given on the agent for a model the catalogue does not know (or to override it). */
  contextWindow?: number;
  pricing?: ModelPricing;
  capabilities?: ModelSpecCapabilities;
}

/** What an agent definition may contain in its `model` field. */
export type ModelReference =
  | string
  | {
      id: string;
      provider?: string;
      temperature?: number;
      maxOutputTokens?: number;
      contextWindow?: number;
      pricing?: ModelPricing;
      reasoning?: ModelReasoning;
      capabilities?: ModelSpecCapabilities;
    };

export type ModelSpecErrorCode = "model.unknown_provider" | "model.unknown_model" | "model.malformed";

export interface ModelSpecError {
  code: ModelSpecErrorCode;
  message: string;
}

export type ParseModelSpecResult = { ok: true; spec: ModelSpec } | { ok: false; error: ModelSpecError };

const OBJECT_KEYS = new Set([
  "id",
  "provider",
  "temperature",
  "maxOutputTokens",
  "contextWindow",
  "pricing",
  "reasoning",
  "capabilities",
]);
const PRICE_KEYS = new Set(["input", "output", "cachedInputRead", "cachedInputWrite"]);
const MAX_TEMPERATURE = 2;

function isModelProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

function fail(code: ModelSpecErrorCode, message: string): ParseModelSpecResult {
  return { ok: false, error: { code, message } };
}

function unknownProvider(provider: string): ParseModelSpecResult {
  return fail(
    "model.unknown_provider",
    `Unknown model provider "${provider}"; expected one of ${MODEL_PROVIDERS.join(", ")}`,
  );
}

function checkModelId(provider: ModelProvider, modelId: string): ParseModelSpecResult | null {
  if (modelId.length === 0 || /\s/.test(modelId)) {
    return fail("model.malformed", "Model id must be a non-empty string without whitespace");
  }
  if (provider === "builtin" && !(BUILTIN_MODEL_IDS as readonly string[]).includes(modelId)) {
    return fail(
      "model.unknown_model",
      `Unknown builtin model "${modelId}"; builtin models: ${BUILTIN_MODEL_IDS.map((id) => `builtin/${id}`).join(", ")}`,
    );
  }
  return null;
}

/** Splits `<provider>/<model-id>` at the first slash: model ids may contain slashes themselves. */
function parseQualifiedId(value: string): ParseModelSpecResult {
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) {
    return fail("model.malformed", `Model "${value}" must have the form <provider>/<model-id>`);
  }
  const provider = value.slice(0, slash);
  const modelId = value.slice(slash + 1);
  if (!isModelProvider(provider)) return unknownProvider(provider);
  return checkModelId(provider, modelId) ?? { ok: true, spec: { provider, modelId } };
}

function parseObjectReference(value: Record<string, unknown>): ParseModelSpecResult {
  const unknownKeys = Object.keys(value).filter((key) => !OBJECT_KEYS.has(key));
  if (unknownKeys.length > 0) {
    return fail(
      "model.malformed",
      `Unknown model field(s): ${unknownKeys.join(", ")}; allowed: ${[...OBJECT_KEYS].join(", ")}`,
    );
  }
  const { id, provider, temperature, maxOutputTokens, contextWindow, pricing, reasoning, capabilities } = value;
  if (typeof id !== "string") return fail("model.malformed", "Model object needs a string `id`");
  if (provider !== undefined && typeof provider !== "string") {
    return fail("model.malformed", "Model `provider` must be a string");
  }
  if (
    temperature !== undefined &&
    (typeof temperature !== "number" ||
      !Number.isFinite(temperature) ||
      temperature < 0 ||
      temperature > MAX_TEMPERATURE)
  ) {
    return fail("model.malformed", `Model \`temperature\` must be a number between 0 and ${MAX_TEMPERATURE}`);
  }
  if (
    maxOutputTokens !== undefined &&
    (typeof maxOutputTokens !== "number" || !Number.isInteger(maxOutputTokens) || maxOutputTokens < 1)
  ) {
    return fail("model.malformed", "Model `maxOutputTokens` must be a positive integer");
  }
  if (
    contextWindow !== undefined &&
    (typeof contextWindow !== "number" || !Number.isInteger(contextWindow) || contextWindow < 1_024)
  ) {
    return fail("model.malformed", "Model `contextWindow` must be an integer of at least 1024 tokens");
  }
  if (pricing !== undefined && !isPricing(pricing)) {
    return fail(
      "model.malformed",
      "Model `pricing` must be an object of non-negative US dollars per million tokens: input, output, cachedInputRead?, cachedInputWrite?",
    );
  }

  if (reasoning !== undefined && !isReasoning(reasoning)) {
    return fail(
      "model.malformed",
      "Model `reasoning` must be `{ budgetTokens }` (≥ 1024) or `{ effort: low|medium|high }`",
    );
  }

  if (capabilities !== undefined && !isCapabilities(capabilities)) {
    return fail("model.malformed", "Model `capabilities` must be `{ images?: boolean }`");
  }

  let base: ParseModelSpecResult;
  if (provider === undefined) {
    base = parseQualifiedId(id);
  } else {
    if (!isModelProvider(provider)) return unknownProvider(provider);
    if (id.startsWith(`${provider}/`)) {
      return fail(
        "model.malformed",
        `Model id "${id}" repeats the provider; with \`provider\` set, \`id\` is the bare model id`,
      );
    }
    base = checkModelId(provider, id) ?? { ok: true, spec: { provider, modelId: id } };
  }
  if (!base.ok) return base;
  return {
    ok: true,
    spec: {
      ...base.spec,
      ...(temperature !== undefined ? { temperature: temperature as number } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens: maxOutputTokens as number } : {}),
      ...(contextWindow !== undefined ? { contextWindow: contextWindow as number } : {}),
      ...(pricing !== undefined ? { pricing: pricing as ModelPricing } : {}),
      ...(reasoning !== undefined ? { reasoning: reasoning as ModelReasoning } : {}),
      ...(capabilities !== undefined ? { capabilities: capabilities as ModelSpecCapabilities } : {}),
    },
  };
}

function isCapabilities(value: unknown): value is ModelSpecCapabilities {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { images, ...rest } = value as Record<string, unknown>;
  return Object.keys(rest).length === 0 && (images === undefined || typeof images === "boolean");
}

function isReasoning(value: unknown): value is ModelReasoning {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { budgetTokens, effort, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || (budgetTokens === undefined) === (effort === undefined)) return false;
  return budgetTokens !== undefined
    ? typeof budgetTokens === "number" && Number.isInteger(budgetTokens) && budgetTokens >= 1_024
    : effort === "low" || effort === "medium" || effort === "high";
}

function isPricing(value: unknown): value is ModelPricing {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  const price = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  return (
    entries.every(([key, v]) => PRICE_KEYS.has(key) && price(v)) &&
    price((value as ModelPricing).input) &&
    price((value as ModelPricing).output)
  );
}

/** Parses a model reference (string or object form) as stored on an agent. Pure. */
export function parseModelSpec(reference: unknown): ParseModelSpecResult {
  if (typeof reference === "string") return parseQualifiedId(reference);
  if (typeof reference === "object" && reference !== null && !Array.isArray(reference)) {
    return parseObjectReference(reference as Record<string, unknown>);
  }
  return fail("model.malformed", "Model must be a string <provider>/<model-id> or an object with an `id`");
}

/** The canonical `<provider>/<model-id>` name, for logs and usage records. */
export function formatModelSpec(spec: Pick<ModelSpec, "provider" | "modelId">): string {
  return `${spec.provider}/${spec.modelId}`;
}
