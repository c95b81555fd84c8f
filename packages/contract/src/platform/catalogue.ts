import { z } from "zod";
import { MODEL_PROVIDERS, ModelPricingSchema } from "../agents/model.js";
import { BUILTIN_TOOL_NAMES } from "../agents/tools.js";
import { c, routerOptions } from "../common/router.js";

export const CatalogueModelSchema = z
  .object({
    id: z.string().describe("`<provider>/<model-id>`, as an agent's `model` names it"),
    provider: z.enum(MODEL_PROVIDERS),
    available: z
      .boolean()
      .describe("The provider is configured on this server (credentials or base URL): agents may use the model"),
    unavailableReason: z.string().nullable().describe("What to configure when `available` is false"),
    contextWindow: z.number().int().nullable().describe("Tokens accepted in one call, prompt and output together"),
    maxOutputTokens: z.number().int().nullable(),
    pricing: ModelPricingSchema.nullable().describe("US dollars per million tokens; null when the price is unknown"),
    capabilities: z.object({
      tools: z.boolean(),
      images: z.boolean(),
      reasoning: z.boolean().describe("Accepts a `reasoning` setting (thinking budget or effort)"),
      promptCaching: z.boolean(),
    }),
  })
  .describe("A model of the catalogue: the built-in entries and the deployment's `MODEL_CATALOGUE` additions");

export const CatalogueModelListSchema = z
  .object({ data: z.array(CatalogueModelSchema).describe("Every model, by provider then id") })
  .describe("The model catalogue of this server");

export const CatalogueEmbeddingModelSchema = z
  .object({
    id: z
      .string()
      .describe("`<provider>/<model-id>`, as a knowledge base's or memory store's `embeddingModel` names it"),
    provider: z.enum(MODEL_PROVIDERS),
    available: z
      .boolean()
      .describe("The provider is configured on this server (credentials or base URL): bases and stores may use it"),
    unavailableReason: z.string().nullable().describe("What to configure when `available` is false"),
    dimensions: z.number().int().describe("Length of the vectors it returns by default"),
    shortenable: z
      .boolean()
      .describe("Accepts `dimensions` in the `embeddingModel` object for shorter vectors (`text-embedding-3-*`)"),
    maxInputTokens: z.number().int().describe("Tokens accepted in one input"),
    pricing: z
      .object({ input: z.number().describe("US dollars per million input tokens") })
      .nullable()
      .describe("Null when the price is unknown"),
    isDefault: z.boolean().describe("The model bases and stores get when they name none (`builtin/hash-ngrams`)"),
  })
  .describe("An embedding model the platform knows");

export const CatalogueEmbeddingModelListSchema = z
  .object({ data: z.array(CatalogueEmbeddingModelSchema).describe("Every known embedding model, by provider then id") })
  .describe("The embedding models of this server");

export const BuiltinToolSchema = z
  .object({
    name: z.enum(BUILTIN_TOOL_NAMES),
    description: z.string(),
    readOnly: z.boolean().describe("Never changes anything outside the session (kept under read confinement)"),
  })
  .describe("A built-in tool an agent can list in `tools` by name");

export const BuiltinToolListSchema = z
  .object({ data: z.array(BuiltinToolSchema) })
  .describe("The built-in tools of this server");

export const modelsContract = c.router(
  {
    list: {
      method: "GET",
      path: "/v1/models",
      responses: { 200: CatalogueModelListSchema },
      summary: "List the model catalogue",
      description:
        "The models this server knows (context window, output limit, prices, capabilities) and whether each " +
        "provider is configured here. Any `openai-compatible/<name>` works once its provider is configured, listed " +
        "or not; an agent's `model` object can describe one the catalogue does not know.",
    },
    listEmbedding: {
      method: "GET",
      path: "/v1/embedding-models",
      responses: { 200: CatalogueEmbeddingModelListSchema },
      summary: "List the embedding models",
      description:
        "The embedding models knowledge bases and memory stores can name (`embeddingModel`): vector length, input " +
        "limit, price, and whether each provider is configured here. Any `openai-compatible/<id>` works once " +
        "`OPENAI_COMPATIBLE_BASE_URL` is set, listed or not (its dimensions are learned from its first answer).",
    },
  },
  routerOptions,
);

export const builtinToolsContract = c.router(
  {
    list: {
      method: "GET",
      path: "/v1/tools",
      responses: { 200: BuiltinToolListSchema },
      summary: "List the built-in tools",
      description: "The names an agent's `tools` accepts as strings, with what each does.",
    },
  },
  routerOptions,
);

export type CatalogueModel = z.infer<typeof CatalogueModelSchema>;
export type BuiltinTool = z.infer<typeof BuiltinToolSchema>;
export type CatalogueEmbeddingModel = z.infer<typeof CatalogueEmbeddingModelSchema>;
