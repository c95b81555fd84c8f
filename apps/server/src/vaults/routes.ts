import { vaultsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { authOf } from "../http/auth-context.js";
import { createVault, deleteVault, getVault, listVaults, updateVaultSecrets } from "./vaults-service.js";

const s = initServer();

export function vaultRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return s.router(vaultsContract, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await createVault(prisma, ctx.secrets, authOf(req).workspaceId, body),
    }),
    list: async ({ req, query }) => ({ status: 200, body: await listVaults(prisma, authOf(req).workspaceId, query) }),
    get: async ({ req, params }) => ({ status: 200, body: await getVault(prisma, authOf(req).workspaceId, params.id) }),
    updateSecrets: async ({ req, params, body }) => ({
      status: 200,
      body: await updateVaultSecrets(prisma, ctx.secrets, authOf(req).workspaceId, params.id, body),
    }),
    delete: async ({ req, params }) => ({
      status: 200,
      body: await deleteVault(prisma, authOf(req).workspaceId, params.id),
    }),
  });
}
