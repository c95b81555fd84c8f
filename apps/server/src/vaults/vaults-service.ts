import { type CreateVault, LIMITS, type UpdateVaultSecrets, type Vault } from "@agent-platform/contract";
import { type Database, Prisma } from "@agent-platform/db";
import type { SecretBox } from "../crypto/secret-box.js";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toVault } from "./serialize.js";
import { sealSecrets, type VaultSecrets } from "./vault-secrets.js";

function nameTaken(name: string): AppError {
  return new AppError("vault.name_taken", `A vault named "${name}" already exists in this workspace`);
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

export async function createVault(
  prisma: Database,
  box: SecretBox,
  workspaceId: string,
  input: CreateVault,
): Promise<Vault> {
  const { sealed, secretKeys } = sealSecrets(box, input.secrets ?? {});
  try {
    const row = await prisma.vault.create({
      data: {
        id: newId("vault"),
        workspaceId,
        name: input.name,
        description: input.description ?? null,
        sealed,
        secretKeys,
      },
    });
    return toVault(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

export async function listVaults(
  prisma: Database,
  workspaceId: string,
  query: { limit: number; cursor?: string; name?: string },
) {
  const filters = { name: query.name };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.vault.findMany({
    where: {
      workspaceId,
      ...(query.name !== undefined ? { name: query.name } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.id, toVault);
}

export async function getVault(prisma: Database, workspaceId: string, id: string): Promise<Vault> {
  const row = await prisma.vault.findFirst({ where: { id, workspaceId } });
  if (!row) throw notFound("vault.not_found", "Vault", id);
  return toVault(row);
}

/**
 * Merge by key: `secrets` sets (adds or replaces), `remove` deletes, other keys are kept. The row is locked so two
 * concurrent updates cannot lose each other's keys.
 */
export async function updateVaultSecrets(
  prisma: Database,
  box: SecretBox,
  workspaceId: string,
  id: string,
  input: UpdateVaultSecrets,
): Promise<Vault> {
  return prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ sealed: string }[]>`
      SELECT "sealed" FROM vaults WHERE "id" = ${id} AND "workspaceId" = ${workspaceId} FOR UPDATE`;
    const current = locked[0];
    if (!current) throw notFound("vault.not_found", "Vault", id);
    const secrets: VaultSecrets = { ...box.open<VaultSecrets>(current.sealed), ...input.secrets };
    for (const key of input.remove ?? []) delete secrets[key];
    if (Object.keys(secrets).length > LIMITS.vaultSecrets) {
      const message = `a vault holds at most ${LIMITS.vaultSecrets} secrets`;
      throw new AppError("request.invalid", `Invalid request: body.secrets: ${message}`, {
        issues: [{ path: "body.secrets", message }],
      });
    }
    const row = await tx.vault.update({ where: { id }, data: sealSecrets(box, secrets) });
    return toVault(row);
  });
}

export async function deleteVault(prisma: Database, workspaceId: string, id: string): Promise<Vault> {
  const row = await prisma.vault.findFirst({ where: { id, workspaceId } });
  if (!row) throw notFound("vault.not_found", "Vault", id);
  await prisma.vault.deleteMany({ where: { id, workspaceId } });
  return toVault(row);
}
