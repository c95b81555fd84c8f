import { z } from "zod";
import { LIMITS } from "../common/limits.js";
import { OutcomeInputSchema } from "../sessions/outcomes.js";

const ModelString = z
  .string()
  .min(3)
  .max(200)
  .regex(/^[a-z][a-z0-9-]*\/\S+$/, "must be `<provider>/<model-id>`, e.g. `openai/gpt-4o-mini`")
  .describe(
    "`<provider>/<model-id>` (as an agent's `model`), e.g. `openai/gpt-4o-mini`, `builtin/echo` or `builtin/script`",
  );

export const ModelTaskSchema = z
  .object({
    type: z.literal("model"),
    model: ModelString,
    system: z.string().max(LIMITS.agentSystem).optional().describe("System prompt of every case"),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().min(1).max(200_000).optional(),
  })
  .strict()
  .describe("Each case's `input` is the user message of one model call, with no tools");

export const AgentTaskInputSchema = z
  .object({
    type: z.literal("agent"),
    agentId: z.string().min(1).max(64),
    agentVersion: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Version to run; absent: the current version at creation, frozen then"),
    maxTurns: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.agentTaskMaxTurnsMax)
      .default(LIMITS.agentTaskMaxTurnsDefault)
      .describe(`Cap on model calls per case (default ${LIMITS.agentTaskMaxTurnsDefault})`),
    timeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(LIMITS.agentTaskTimeoutMsMax)
      .default(LIMITS.agentTaskTimeoutMsDefault)
      .describe(`Cap on a case's duration in milliseconds (default ${LIMITS.agentTaskTimeoutMsDefault})`),
    confineReadonly: z
      .boolean()
      .default(false)
      .describe("Run each case with read confinement: mutating tools of every origin removed"),
    outcome: OutcomeInputSchema.optional().describe(
      "Each case's session carries this outcome: its answer is graded and revised in the loop before the case is scored",
    ),
  })
  .strict()
  .describe(
    "Each case runs as a real session of the agent (tools, skills, memory, the durable loop), with no operator",
  );

export const ExperimentTaskInputSchema = z.discriminatedUnion("type", [ModelTaskSchema, AgentTaskInputSchema]);

export const AgentTaskSchema = AgentTaskInputSchema.extend({
  agentVersion: z.number().int().describe("Frozen at creation"),
});

export const ExperimentTaskSchema = z.discriminatedUnion("type", [ModelTaskSchema, AgentTaskSchema]);

export type ExperimentTaskInput = z.input<typeof ExperimentTaskInputSchema>;
export type ExperimentTask = z.infer<typeof ExperimentTaskSchema>;
export type ModelTask = z.infer<typeof ModelTaskSchema>;
export type AgentTask = z.infer<typeof AgentTaskSchema>;
