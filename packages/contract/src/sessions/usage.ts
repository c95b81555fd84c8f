import { z } from "zod";

export const USAGE_DAYS_MAX = 90;
export const USAGE_DAYS_DEFAULT = 14;

export const ProjectUsageQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(USAGE_DAYS_MAX)
    .default(USAGE_DAYS_DEFAULT)
    .describe(`Days back, today (UTC) included (default ${USAGE_DAYS_DEFAULT}, at most ${USAGE_DAYS_MAX})`),
});

export const UsageRowSchema = z
  .object({
    date: z.string().describe("UTC day, `YYYY-MM-DD`"),
    agentId: z.string().describe("The agent of the sessions that made the calls"),
    model: z.string().describe("`provider/model` that answered"),
    calls: z.number().int().describe("Model calls (compaction summaries included)"),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    costUsd: z.number().describe("Estimated US dollars of the calls whose price is known"),
    unpricedCalls: z.number().int().describe("Calls without a known price (not in `costUsd`)"),
  })
  .describe("The model calls of one day, agent and model");

export const ProjectUsageSchema = z
  .object({
    from: z.string().describe("First UTC day counted, `YYYY-MM-DD`"),
    to: z.string().describe("Last UTC day counted (today)"),
    data: z.array(UsageRowSchema).describe("By day, then agent, then model; days without calls are absent"),
  })
  .describe("The project's model calls over the last days, from the sessions' logs");

export type ProjectUsage = z.infer<typeof ProjectUsageSchema>;
export type UsageRow = z.infer<typeof UsageRowSchema>;
