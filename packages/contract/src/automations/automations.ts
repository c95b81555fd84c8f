import { z } from "zod";
import { AgentVersionNumber, DefaultsResourceInputSchema, DefaultsResourceSchema } from "../agents/config.js";
import { Description, IdOrName, idOf, Name, NullableTimestamp, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { PageQuerySchema } from "../common/pagination.js";
import { OutcomeInputSchema, OutcomeSchema } from "../sessions/outcomes.js";
import { TriggerInputSchema, TriggerSchema } from "./trigger.js";

const unique =
  <T>(key: (item: T) => string) =>
  (items: T[]) =>
    new Set(items.map(key)).size === items.length;

const AutomationVaultIds = z
  .array(IdOrName)
  .max(LIMITS.automationVaults)
  .refine(
    unique((v: string) => v),
    { message: "vaults must be unique" },
  )
  .describe(
    "Vault ids (`vault_…`) or names, stored and returned as ids. `[]` (blank) means the agent's default vaults at " +
      "firing time, then none",
  );

const AutomationResources = z
  .array(DefaultsResourceInputSchema)
  .max(LIMITS.automationResources)
  .refine(
    unique((r: { memoryStoreId: string }) => r.memoryStoreId),
    { message: "memory stores must be unique" },
  )
  .describe(
    "Memory mounts (`memoryStoreId` is an id or a name; `memoryStoreName` is stored from the real store). `[]` " +
      "(blank) means the agent's default mounts at firing time, then none",
  );

const AgentVersionPin = AgentVersionNumber.nullable().describe(
  "Version pin. Null or absent: the agent's current version at firing time. A pinned version that no longer exists " +
    "falls back to the current version at firing (an error is logged)",
);

const EnvironmentId = z
  .string()
  .min(1)
  .max(64)
  .nullable()
  .describe(
    "Environment of the firings' sessions. Null or absent (blank): the agent's default environment at firing time, " +
      "else the project's default (base) environment",
  );

const Prompt = z
  .string()
  .min(1)
  .max(LIMITS.automationPrompt)
  .describe("Up to 20000 characters: the text of the `user.message` that opens each firing's session");

export const CreateAutomationSchema = z
  .object({
    name: Name.describe("1 to 200 characters; also the title of the sessions it creates"),
    description: Description.nullable().optional(),
    agentId: z.string().min(1).max(64).describe("`agent_…` id of the project; cannot be changed later"),
    agentVersion: AgentVersionPin.optional(),
    prompt: Prompt,
    trigger: TriggerInputSchema,
    enabled: z.boolean().optional().describe("Default `true`. A disabled automation's schedule does not fire"),
    environmentId: EnvironmentId.optional(),
    vaultIds: AutomationVaultIds.optional(),
    resources: AutomationResources.optional(),
    outcome: OutcomeInputSchema.nullable()
      .optional()
      .describe("The outcome each firing's session carries (see sessions, Outcomes); null or absent: none"),
  })
  .strict();

export const UpdateAutomationSchema = z
  .object({
    name: Name.optional(),
    description: Description.nullable().optional().describe("Null clears it"),
    agentVersion: AgentVersionPin.optional().describe("Null clears the pin (current version at firing time)"),
    prompt: Prompt.optional(),
    trigger: TriggerInputSchema.optional().describe("Replaces the whole trigger (absent fields take their defaults)"),
    enabled: z.boolean().optional(),
    environmentId: EnvironmentId.optional().describe("Null clears it"),
    vaultIds: AutomationVaultIds.optional(),
    resources: AutomationResources.optional(),
    outcome: OutcomeInputSchema.nullable().optional().describe("Null removes it"),
  })
  .strict()
  .describe(
    "Only the fields present change (`agentId` cannot). References that actually changed are validated again; " +
      "an unchanged pin of an agent archived since does not block the edit",
  );

export const AutomationSchema = z
  .object({
    id: idOf("auto"),
    projectId: idOf("proj"),
    name: z.string(),
    description: z.string().nullable(),
    agentId: z.string(),
    agentVersion: z.number().int().nullable(),
    prompt: z.string(),
    trigger: TriggerSchema,
    enabled: z.boolean(),
    environmentId: z.string().nullable(),
    vaultIds: z.array(z.string()),
    resources: z.array(DefaultsResourceSchema),
    outcome: OutcomeSchema.nullable().describe("The outcome of the firings' sessions; null: none"),
    scheduleDescription: z
      .string()
      .nullable()
      .describe("The schedule in English (`At 09:00 AM, Monday through Friday`); null for a manual trigger"),
    nextRunAt: NullableTimestamp.describe(
      "Scheduled time of the next firing (before jitter); null when disabled or manual",
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Automation: a prompt an agent runs on a schedule or on demand");

export const AutomationListQuery = PageQuerySchema;

export type CreateAutomationInput = z.infer<typeof CreateAutomationSchema>;
export type UpdateAutomationInput = z.infer<typeof UpdateAutomationSchema>;
export type Automation = z.infer<typeof AutomationSchema>;
