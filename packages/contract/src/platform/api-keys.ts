import { z } from "zod";
import { EmptyBodySchema, idOf, Name, NullableTimestamp, Timestamp } from "../common/fields.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { ApiKeyRoleSchema } from "./context.js";

export const ApiKeySchema = z
  .object({
    id: idOf("key"),
    name: z.string(),
    projectId: idOf("proj"),
    role: ApiKeyRoleSchema,
    start: z.string().describe("First characters of the key, to recognise it"),
    createdAt: Timestamp,
    revokedAt: NullableTimestamp,
  })
  .describe("API key (the secret is never returned after creation)");

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe("The secret. Shown only in this response."),
});

export const CreateApiKeySchema = z
  .object({
    name: Name,
    projectId: idOf("proj"),
    role: ApiKeyRoleSchema.default("member"),
  })
  .strict();

export const apiKeysContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/api-keys",
      body: CreateApiKeySchema,
      responses: { 201: CreatedApiKeySchema },
      summary: "Create an API key bound to one project (admin key)",
    },
    list: {
      method: "GET",
      path: "/v1/api-keys",
      query: PageQuerySchema,
      responses: { 200: cursorPage(ApiKeySchema) },
      summary: "List the workspace's API keys (admin key)",
    },
    revoke: {
      method: "POST",
      path: "/v1/api-keys/:id/revoke",
      pathParams: z.object({ id: z.string() }),
      body: EmptyBodySchema,
      responses: { 200: ApiKeySchema },
      summary: "Revoke an API key (admin key); it stops working at once",
    },
  },
  routerOptions,
);

export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
