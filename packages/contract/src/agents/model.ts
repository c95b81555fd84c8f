import { z } from "zod";

export const MODEL_PROVIDERS = ["anthropic", "openai", "openai-compatible", "builtin"] as const;

const ModelString = z
  .string()
  .min(3)
  .max(200)
  .regex(/^[a-z][a-z0-9-]*\/\S+$/, "must be `<provider>/<model-id>`, e.g. `anthropic/claude-sonnet-4-5`")
  .describe(
    "`<provider>/<model-id>`: anthropic, openai, openai-compatible, or `builtin/echo` and `builtin/script` (offline)",
  );

const PricePerMillion = z.number().min(0).max(10_000);

export const ModelPricingSchema = z
  .object({
    input: PricePerMillion.describe("US dollars per million input tokens"),
    output: PricePerMillion.describe("US dollars per million output tokens"),
    cachedInputRead: PricePerMillion.optional().describe("Per million input tokens read from the prompt cache"),
    cachedInputWrite: PricePerMillion.optional().describe("Per million input tokens written to the prompt cache"),
  })
  .strict()
  .describe("Prices of a model, for cost estimates (the model catalogue's when absent)");

export type ModelPricing = z.infer<typeof ModelPricingSchema>;

export const ModelReasoningSchema = z
  .object({
    budgetTokens: z
      .number()
      .int()
      .min(1_024)
      .max(128_000)
      .optional()
      .describe("Thinking budget in tokens (Anthropic extended thinking), on top of `maxOutputTokens`"),
    effort: z
      .enum(["low", "medium", "high"])
      .optional()
      .describe("Reasoning effort (OpenAI reasoning models); on Anthropic it picks a budget of 2k, 8k or 24k tokens"),
  })
  .strict()
  .refine((r) => (r.budgetTokens === undefined) !== (r.effort === undefined), {
    message: "give exactly one of `budgetTokens` and `effort`",
  })
  .describe("Reasoning setting, for models the catalogue says can reason (refused with 422 otherwise)");

export type ModelReasoning = z.infer<typeof ModelReasoningSchema>;

/** Named (not inferred) so that the contract's declaration, which repeats it on every agent route, stays small. */
export interface ModelObject {
  id: string;
  provider?: (typeof MODEL_PROVIDERS)[number];
  temperature?: number;
  maxOutputTokens?: number;
  contextWindow?: number;
  pricing?: ModelPricing;
  reasoning?: ModelReasoning;
  capabilities?: ModelCapabilitiesOverride;
}

/** What the agent says its model can do, over the model catalogue. */
export interface ModelCapabilitiesOverride {
  images?: boolean;
}

export const ModelCapabilitiesSchema = z
  .object({
    images: z
      .boolean()
      .optional()
      .describe(
        "The model takes images. An `openai-compatible` (Chat Completions) vision model is then shown the images of " +
          "tool results in a user message right after the tool results; otherwise it is told what they were",
      ),
  })
  .strict()
  .describe("What the model can do, where the model catalogue does not know it (or says otherwise)");

export const ModelObjectSchema: z.ZodType<ModelObject, z.ZodTypeDef, ModelObject> = z
  .object({
    id: z.string().min(1).max(200).describe("`<provider>/<model-id>`, or the bare model id when `provider` is given"),
    provider: z.enum(MODEL_PROVIDERS).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().min(1).max(200_000).optional(),
    contextWindow: z
      .number()
      .int()
      .min(1_024)
      .max(100_000_000)
      .optional()
      .describe(
        "Tokens the model accepts in one call (prompt and output). Needed for a model the catalogue does not know " +
          "(e.g. an `openai-compatible` model) for the conversation to be compacted before it overflows",
      ),
    pricing: ModelPricingSchema.optional(),
    reasoning: ModelReasoningSchema.optional(),
    capabilities: ModelCapabilitiesSchema.optional(),
  })
  .strict()
  .describe("Model: object form, with what the model catalogue cannot know about it");

export const ModelRefSchema = z.union([ModelString, ModelObjectSchema]).describe("Model: string or object form");

export type ModelRef = z.infer<typeof ModelRefSchema>;
