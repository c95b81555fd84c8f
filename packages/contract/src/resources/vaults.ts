import { z } from "zod";
import { Description, idOf, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { boundedText, NameFilterQuery, referenceableName, WorkspaceItemParams } from "./shared.js";

export const VaultSecretKeySchema = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9_.-]{1,${LIMITS.vaultSecretKeyLength}}$`),
    `letters, digits, \`_\`, \`.\`, \`-\`; 1 to ${LIMITS.vaultSecretKeyLength} characters`,
  );

export const VaultSecretsSchema = z
  .record(VaultSecretKeySchema, boundedText(LIMITS.vaultSecretValueBytes, 1))
  .refine((secrets) => Object.keys(secrets).length <= LIMITS.vaultSecrets, {
    message: `at most ${LIMITS.vaultSecrets} secrets`,
  })
  .describe("Secret values by key. Write-only: responses carry only `secretKeys`.");

export const VaultSchema = z
  .object({
    id: idOf("vault"),
    workspaceId: idOf("ws"),
    name: z.string(),
    description: z.string().nullable(),
    secretKeys: z.array(z.string()).describe("Names of the stored secrets, sorted; values are never returned"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Vault: a workspace store of secrets, sealed at rest");

export const CreateVaultSchema = z
  .object({
    name: referenceableName("vault").describe("Unique in the workspace; usable instead of the id in references"),
    description: Description.optional(),
    secrets: VaultSecretsSchema.optional(),
  })
  .strict();

export const UpdateVaultSecretsSchema = z
  .object({
    secrets: VaultSecretsSchema.optional().describe("Set these keys (added or replaced); other keys are kept"),
    remove: z.array(VaultSecretKeySchema).max(LIMITS.vaultSecrets).optional().describe("Delete these keys"),
  })
  .strict()
  .superRefine((body, ctx) => {
    const set = Object.keys(body.secrets ?? {});
    if (set.length === 0 && (body.remove ?? []).length === 0) {
      ctx.addIssue({ code: "custom", path: [], message: "set at least one secret or remove at least one key" });
    }
    for (const key of body.remove ?? []) {
      if (set.includes(key))
        ctx.addIssue({ code: "custom", path: ["remove"], message: `\`${key}\` is both set and removed` });
    }
  });

export const vaultsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/vaults",
      body: CreateVaultSchema,
      responses: { 201: VaultSchema },
      summary: "Create a vault",
    },
    list: {
      method: "GET",
      path: "/v1/vaults",
      query: NameFilterQuery,
      responses: { 200: cursorPage(VaultSchema) },
      summary: "List the workspace's vaults, newest first",
    },
    get: {
      method: "GET",
      path: "/v1/vaults/:id",
      pathParams: WorkspaceItemParams,
      responses: { 200: VaultSchema },
      summary: "Get a vault (secret names only)",
    },
    updateSecrets: {
      method: "PUT",
      path: "/v1/vaults/:id/secrets",
      pathParams: WorkspaceItemParams,
      body: UpdateVaultSecretsSchema,
      responses: { 200: VaultSchema },
      summary: "Set and remove secrets by key; keys not named are kept",
    },
    delete: {
      method: "DELETE",
      path: "/v1/vaults/:id",
      pathParams: WorkspaceItemParams,
      responses: { 200: VaultSchema },
      summary: "Delete a vault and its secrets; returns the deleted vault",
    },
  },
  routerOptions,
);

export type Vault = z.infer<typeof VaultSchema>;
export type CreateVault = z.infer<typeof CreateVaultSchema>;
export type UpdateVaultSecrets = z.infer<typeof UpdateVaultSecretsSchema>;
