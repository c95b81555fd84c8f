import { z } from "zod";
import { Description, EmptyBodySchema, IdOrName, idOf, NullableTimestamp, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { ProjectItemParams, ProjectParams, StatusFilterQuery, utf8Bytes } from "./shared.js";

export const ServerlessToolNameSchema = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, "letters, digits, `_` and `-`; 1 to 64 characters")
  .describe("The tool name the model sees");

export const ServerlessToolInputSchema = z
  .record(z.unknown())
  .superRefine((schema, ctx) => {
    if (schema.type !== "object") {
      ctx.addIssue({ code: "custom", path: ["type"], message: 'must be "object" (tool input is a JSON object)' });
    }
    const props = schema.properties;
    if (props !== undefined && (typeof props !== "object" || props === null || Array.isArray(props))) {
      ctx.addIssue({ code: "custom", path: ["properties"], message: "must be an object of property schemas" });
    }
    if (utf8Bytes(JSON.stringify(schema)) > LIMITS.serverlessToolSchemaBytes) {
      ctx.addIssue({ code: "custom", path: [], message: `at most ${LIMITS.serverlessToolSchemaBytes} bytes as JSON` });
    }
  })
  .describe("JSON Schema of the tool input; `type` must be `object`");

export const ServerlessToolUrlSchema = z
  .string()
  .max(LIMITS.serverlessToolUrlLength)
  .url()
  // zod runs refinements even after `.url()` failed, so this one must not throw on a malformed URL.
  .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), {
    message: "must be an http or https URL",
  })
  .describe("Endpoint that receives `POST` with the tool input as JSON");

const ToolVaultRef = IdOrName.describe(
  "Vault (id or name) whose secrets the call may use; stored as the id. Resolved in the key's workspace.",
);

export const ServerlessToolVersionSchema = z
  .object({
    toolId: idOf("stool"),
    version: z.number().int(),
    description: z.string(),
    inputSchema: z.record(z.unknown()),
    url: z.string(),
    vaultId: z.string().nullable(),
    createdAt: Timestamp,
  })
  .describe("One immutable version of a serverless tool");

export const ServerlessToolSchema = z
  .object({
    id: idOf("stool"),
    projectId: idOf("proj"),
    name: z.string(),
    version: z.number().int().describe("The version shown (the current one unless `?version=` asked otherwise)"),
    currentVersion: z.number().int(),
    description: z.string(),
    inputSchema: z.record(z.unknown()),
    url: z.string(),
    vaultId: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: NullableTimestamp,
  })
  .describe("Serverless tool: an HTTP endpoint exposed to agents as a tool, versioned like agents");

export const CreateServerlessToolSchema = z
  .object({
    name: ServerlessToolNameSchema.describe("Unique in the project"),
    description: Description.min(1).describe("What the tool does, for the model"),
    inputSchema: ServerlessToolInputSchema,
    url: ServerlessToolUrlSchema,
    vaultId: ToolVaultRef.optional(),
  })
  .strict();

export const PublishServerlessToolSchema = z
  .object({
    version: z.number().int().min(1).describe("The current version you expect (optimistic lock)"),
    description: Description.min(1).optional(),
    inputSchema: ServerlessToolInputSchema.optional(),
    url: ServerlessToolUrlSchema.optional(),
    vaultId: ToolVaultRef.nullable().optional().describe("Vault id or name; `null` removes the vault"),
  })
  .strict();

export const ServerlessToolGetQuery = z.object({
  version: z.coerce.number().int().min(1).optional().describe("A past version; absent means the current one"),
});

export const serverlessToolsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/projects/:projectId/serverless-tools",
      pathParams: ProjectParams,
      body: CreateServerlessToolSchema,
      responses: { 201: ServerlessToolSchema },
      summary: "Create a serverless tool (version 1)",
    },
    list: {
      method: "GET",
      path: "/v1/projects/:projectId/serverless-tools",
      pathParams: ProjectParams,
      query: StatusFilterQuery,
      responses: { 200: cursorPage(ServerlessToolSchema) },
      summary: "List serverless tools (current versions), newest first",
    },
    get: {
      method: "GET",
      path: "/v1/projects/:projectId/serverless-tools/:id",
      pathParams: ProjectItemParams,
      query: ServerlessToolGetQuery,
      responses: { 200: ServerlessToolSchema },
      summary: "Get a serverless tool, current or the given version",
    },
    publish: {
      method: "POST",
      path: "/v1/projects/:projectId/serverless-tools/:id",
      pathParams: ProjectItemParams,
      body: PublishServerlessToolSchema,
      responses: { 200: ServerlessToolSchema },
      summary: "Publish a new version (patch over the current one); a patch that changes nothing publishes nothing",
    },
    listVersions: {
      method: "GET",
      path: "/v1/projects/:projectId/serverless-tools/:id/versions",
      pathParams: ProjectItemParams,
      query: PageQuerySchema,
      responses: { 200: cursorPage(ServerlessToolVersionSchema) },
      summary: "List versions, newest first",
    },
    archive: {
      method: "POST",
      path: "/v1/projects/:projectId/serverless-tools/:id/archive",
      pathParams: ProjectItemParams,
      body: EmptyBodySchema,
      responses: { 200: ServerlessToolSchema },
      summary: "Archive a serverless tool; it can no longer be published or newly referenced",
    },
  },
  routerOptions,
);

export type ServerlessTool = z.infer<typeof ServerlessToolSchema>;
export type ServerlessToolVersion = z.infer<typeof ServerlessToolVersionSchema>;
export type CreateServerlessTool = z.infer<typeof CreateServerlessToolSchema>;
export type PublishServerlessTool = z.infer<typeof PublishServerlessToolSchema>;
