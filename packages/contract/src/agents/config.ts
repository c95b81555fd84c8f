import { z } from "zod";
import { Description, IdOrName, MetadataSchema, Name } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { GuardrailSchema, GuardrailsSchema } from "../guardrails/guardrails.js";
import { ModelRefSchema } from "./model.js";
import { AgentToolSchema, boundedJsonObject, ToolPermissionsSchema } from "./tools.js";

/** A version number (versions are PostgreSQL integers). */
export const AgentVersionNumber = z.number().int().min(1).max(2_147_483_647);

const NOT_EMPTY = "an empty object is not a value; omit the field to keep the current one";

const unique = <T>(key: (item: T) => string, what: string) => ({
  check: (items: T[]) => new Set(items.map(key)).size === items.length,
  message: `${what} must be unique`,
});

function uniqueBy<T extends z.ZodTypeAny>(schema: z.ZodArray<T>, key: (item: z.infer<T>) => string, what: string) {
  const u = unique(key, what);
  return schema.refine(u.check, { message: u.message });
}

// ---- MCP servers ----

export const McpServerNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, "letters, digits, `_` and `-`, 1 to 64 characters")
  .refine((n) => !n.includes("__"), { message: "must not contain `__` (it separates server and tool names)" });

const HeaderText = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/, "header values cannot contain line breaks");

/**
 * A header value taken from a secret of the session's vaults when the platform connects to the server (the session's
 * `vaultIds`, in order: the first vault holding the key gives the value), optionally after a fixed prefix.
 */
export const VaultHeaderValueSchema = z
  .object({
    vaultKey: z
      .string()
      .regex(
        new RegExp(`^[A-Za-z0-9_.-]{1,${LIMITS.vaultSecretKeyLength}}$`),
        "a vault secret key: letters, digits, `_`, `.`, `-`",
      )
      .describe("Name of the secret in one of the session's vaults"),
    prefix: HeaderText.optional().describe('Text sent before the secret, e.g. `"Bearer "`'),
  })
  .strict()
  .describe("A header value read from the session's vaults at connect time");

export const HeaderValueSchema = z
  .union([HeaderText, VaultHeaderValueSchema])
  .describe("The value itself, or `{ vaultKey, prefix? }` to take it from a secret of the session's vaults");
export type HeaderValue = z.infer<typeof HeaderValueSchema>;

/** Annotated: the inferred type, repeated in every agent route, would exceed what declaration emit can serialize. */
export const HeadersSchema: z.ZodType<Record<string, HeaderValue>, z.ZodTypeDef, Record<string, HeaderValue>> = z
  .record(
    z
      .string()
      .min(1)
      .max(256)
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "not a valid HTTP header name"),
    HeaderValueSchema,
  )
  .refine((h) => Object.keys(h).length <= LIMITS.mcpHeaders, { message: `at most ${LIMITS.mcpHeaders} headers` })
  .refine((h) => new Set(Object.keys(h).map((k) => k.toLowerCase())).size === Object.keys(h).length, {
    message: "header names are case-insensitive: each may appear once",
  });

const HttpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), { message: "must be an http(s) URL" });

export const McpServerInputSchema = z
  .object({
    name: McpServerNameSchema,
    url: HttpUrl,
    headers: HeadersSchema.optional().describe("Write-only. The complete header set for this server; `{}` clears it"),
  })
  .strict();

export const McpServerSchema = z.object({
  name: z.string(),
  url: z.string(),
  headerKeys: z.array(z.string()).describe("Names of the stored headers; values are never returned"),
});

// ---- references ----

export const SkillRefSchema = z
  .object({ skillId: z.string().min(1).max(64), version: AgentVersionNumber })
  .strict()
  .describe("A skill pinned by version");

export const ServerlessToolRefSchema = z
  .object({ toolId: z.string().min(1).max(64), version: AgentVersionNumber })
  .strict()
  .describe("A serverless tool pinned by version");

export const EgressPolicySchema = z
  .object({
    allowedDomains: z
      .array(z.string().min(1).max(253))
      .max(256)
      .optional()
      .describe("When present, only these hosts (`example.com`, `*.example.com`) are reachable"),
    deniedDomains: z.array(z.string().min(1).max(253)).max(256).optional().describe("Hosts never reachable"),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: NOT_EMPTY })
  .describe("Narrows the workspace egress policy; it can never relax it");

export const MemoryModeSchema = z.enum(["read-only", "read-write"]);

export const DefaultsResourceInputSchema = z
  .object({
    memoryStoreId: IdOrName.describe("Memory store id (`ms_…`) or name"),
    memoryStoreName: z.string().min(1).max(200).describe("Required; the stored value always comes from the real store"),
    mode: MemoryModeSchema,
  })
  .strict();

export const DefaultsResourceSchema = z.object({
  memoryStoreId: z.string(),
  memoryStoreName: z.string(),
  mode: MemoryModeSchema,
});

export const DefaultsInputSchema = z
  .object({
    environmentId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("Environment id (`env_…`); absent means the project's default environment"),
    vaultIds: uniqueBy(z.array(IdOrName).max(LIMITS.defaultsVaults), (v) => v, "vaults")
      .optional()
      .describe("Vault ids (`vault_…`) or names; stored and returned as ids"),
    resources: uniqueBy(
      z.array(DefaultsResourceInputSchema).max(LIMITS.defaultsResources),
      (r) => r.memoryStoreId,
      "memory stores",
    ).optional(),
  })
  .strict()
  .refine((d) => Object.keys(d).length > 0, { message: `${NOT_EMPTY}; send null to clear the defaults` });

export const DefaultsSchema = z.object({
  environmentId: z.string().optional(),
  vaultIds: z.array(z.string()).optional(),
  resources: z.array(DefaultsResourceSchema).optional(),
});

// ---- multi-agent ----

export const RosterEntryInputSchema = z
  .object({
    agentId: z.string().min(1).max(64),
    version: AgentVersionNumber.optional().describe("Pinned version; current version at write time when omitted"),
    role: z
      .string()
      .max(LIMITS.rosterRoleLength)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "kebab-case (`research-helper`)"),
    mode: z.enum(["foreground", "background"]),
    readonly: z.boolean().optional(),
    model: ModelRefSchema.optional(),
    outputSchema: boundedJsonObject(LIMITS.agentJsonSchemaBytes)
      .optional()
      .describe("JSON Schema of the expected output, injected into the delegation tool description"),
  })
  .strict();

export const RosterEntrySchema = RosterEntryInputSchema.extend({ version: z.number().int() });

export const MultiagentInputSchema = z
  .object({
    type: z.literal("coordinator"),
    roster: uniqueBy(z.array(RosterEntryInputSchema).min(1).max(LIMITS.rosterEntries), (e) => e.role, "roster roles"),
    budget: z
      .object({
        maxDelegations: z.number().int().min(0).max(10_000).describe("Ceiling on spawns in the whole delegation tree"),
      })
      .strict()
      .optional(),
  })
  .strict();

export const MultiagentSchema = z.object({
  type: z.literal("coordinator"),
  roster: z.array(RosterEntrySchema),
  budget: z.object({ maxDelegations: z.number() }).optional(),
});

// ---- browser, voice ----

export const BrowserSchema = z
  .object({
    provider: z.enum(["self_hosted", "provider_a_cloud", "provider_b"]).default("self_hosted"),
    region: z.string().min(1).max(64).optional(),
    viewport: z
      .object({ width: z.number().int().min(320).max(3840), height: z.number().int().min(240).max(2160) })
      .strict()
      .optional(),
  })
  .strict();

export const TtsSchema = z
  .object({
    voice: z.string().min(1).max(100),
    provider: z.string().min(1).max(100).optional(),
    language: z.string().min(2).max(35).optional(),
    speed: z.number().min(0.25).max(4).optional(),
  })
  .strict();

// ---- the configuration ----

const toolsField = z
  .array(AgentToolSchema)
  .max(LIMITS.agentTools)
  .refine((tools) => new Set(tools.map((t) => (typeof t === "string" ? t : t.name))).size === tools.length, {
    message: "tool names must be unique",
  });

/** Fields shared by create and update. On update every field is optional and lists/objects replace whole values. */
export const agentConfigFields = {
  name: Name.describe("1 to 200 characters; need not be unique"),
  description: Description.optional(),
  model: ModelRefSchema,
  system: z.string().max(LIMITS.agentSystem).describe("Persistent instructions"),
  tools: toolsField,
  mcpServers: uniqueBy(z.array(McpServerInputSchema).max(LIMITS.agentMcpServers), (s) => s.name, "MCP server names"),
  toolPermissions: ToolPermissionsSchema,
  skills: uniqueBy(z.array(SkillRefSchema).max(LIMITS.agentSkills), (s) => s.skillId, "skills"),
  knowledgeBases: uniqueBy(
    z.array(z.string().min(1).max(64)).max(LIMITS.agentKnowledgeBases),
    (k) => k,
    "knowledge bases",
  ),
  serverlessTools: uniqueBy(
    z.array(ServerlessToolRefSchema).max(LIMITS.agentServerlessTools),
    (s) => s.toolId,
    "serverless tools",
  ),
  egressPolicy: EgressPolicySchema,
  defaults: DefaultsInputSchema,
  multiagent: MultiagentInputSchema,
  browser: BrowserSchema,
  recordBrowser: z.boolean(),
  tts: TtsSchema,
  metadata: MetadataSchema,
  guardrails: GuardrailsSchema,
};

export const CreateAgentSchema = z
  .object({
    ...agentConfigFields,
    description: agentConfigFields.description,
    system: agentConfigFields.system.optional(),
    tools: agentConfigFields.tools.optional(),
    mcpServers: agentConfigFields.mcpServers.optional(),
    toolPermissions: agentConfigFields.toolPermissions.optional(),
    skills: agentConfigFields.skills.optional(),
    knowledgeBases: agentConfigFields.knowledgeBases.optional(),
    serverlessTools: agentConfigFields.serverlessTools.optional(),
    egressPolicy: agentConfigFields.egressPolicy.optional(),
    defaults: agentConfigFields.defaults.optional(),
    multiagent: agentConfigFields.multiagent.optional(),
    browser: agentConfigFields.browser.optional(),
    recordBrowser: agentConfigFields.recordBrowser.optional(),
    tts: agentConfigFields.tts.optional(),
    metadata: agentConfigFields.metadata.optional(),
    guardrails: agentConfigFields.guardrails.optional(),
  })
  .strict()
  .describe("Agent configuration; `name` and `model` are required");

/**
 * Update: `version` (expected current) plus any fields. `null` is accepted only where the spec allows clearing:
 * multiagent, browser, defaults, recordBrowser. `metadata` merges by key; an empty-string value removes the key.
 */
export const UpdateAgentSchema = z
  .object({
    version: AgentVersionNumber.describe("The current version you expect (optimistic lock)"),
    name: agentConfigFields.name.optional(),
    description: agentConfigFields.description,
    model: agentConfigFields.model.optional(),
    system: agentConfigFields.system.optional(),
    tools: agentConfigFields.tools.optional(),
    mcpServers: agentConfigFields.mcpServers.optional(),
    toolPermissions: agentConfigFields.toolPermissions.optional(),
    skills: agentConfigFields.skills.optional(),
    knowledgeBases: agentConfigFields.knowledgeBases.optional(),
    serverlessTools: agentConfigFields.serverlessTools.optional(),
    egressPolicy: agentConfigFields.egressPolicy.optional(),
    defaults: agentConfigFields.defaults.nullable().optional(),
    multiagent: agentConfigFields.multiagent.nullable().optional(),
    browser: agentConfigFields.browser.nullable().optional(),
    recordBrowser: agentConfigFields.recordBrowser.nullable().optional(),
    tts: agentConfigFields.tts.optional(),
    metadata: agentConfigFields.metadata.optional(),
    guardrails: agentConfigFields.guardrails.optional(),
  })
  .strict();

/**
 * The stored configuration of one immutable agent version, as reads return it (and as the runtime consumes it). MCP
 * header values are never part of it: they live in the sealed credential store.
 */
export const AgentConfigSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  model: ModelRefSchema,
  system: z.string(),
  tools: z.array(AgentToolSchema),
  mcpServers: z.array(McpServerSchema),
  toolPermissions: z.record(z.string(), z.enum(["always_allow", "always_ask"])),
  skills: z.array(SkillRefSchema),
  knowledgeBases: z.array(z.string()).optional().describe("Absent means none"),
  serverlessTools: z.array(ServerlessToolRefSchema),
  egressPolicy: EgressPolicySchema.optional(),
  defaults: DefaultsSchema.optional(),
  multiagent: MultiagentSchema.optional(),
  browser: BrowserSchema.optional(),
  recordBrowser: z.boolean().optional(),
  tts: TtsSchema.optional(),
  metadata: z.record(z.string(), z.string()),
  guardrails: z.array(GuardrailSchema).optional().describe("Absent means none"),
});

export type CreateAgentInput = z.infer<typeof CreateAgentSchema>;
export type UpdateAgentInput = z.infer<typeof UpdateAgentSchema>;
export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export type McpServerInput = z.infer<typeof McpServerInputSchema>;
export type RosterEntry = z.infer<typeof RosterEntrySchema>;
export type RosterEntryInput = z.infer<typeof RosterEntryInputSchema>;
