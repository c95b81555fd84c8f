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

export const ModelObjectSchema = z
  .object({
    id: z.string().min(1).max(200).describe("`<provider>/<model-id>`, or the bare model id when `provider` is given"),
    provider: z.enum(MODEL_PROVIDERS).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().min(1).max(200_000).optional(),
  })
  .strict();

export const ModelRefSchema = z.union([ModelString, ModelObjectSchema]).describe("Model: string or object form");

export type ModelRef = z.infer<typeof ModelRefSchema>;
