import type { Database } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import type { SecretBox } from "../crypto/secret-box.js";
import { notFound } from "../http/app-error.js";
import { byRef } from "../lib/by-ref.js";

export type VaultSecrets = Record<string, string>;

export function sealSecrets(box: SecretBox, secrets: VaultSecrets): { sealed: string; secretKeys: string[] } {
  return { sealed: box.seal(secrets), secretKeys: Object.keys(secrets).sort() };
}

/**
 * The decrypted secrets of a vault of the workspace, for the runtime (serverless tools, MCP credentials). The result
 * must never be logged, returned or written to events.
 */
export async function openVaultSecrets(
  ctx: Pick<AppContext, "db" | "secrets">,
  workspaceId: string,
  vaultId: string,
): Promise<VaultSecrets> {
  const row = await ctx.db.prisma.vault.findFirst({ where: { id: vaultId, workspaceId }, select: { sealed: true } });
  if (!row) throw notFound("vault.not_found", "Vault", vaultId);
  return ctx.secrets.open<VaultSecrets>(row.sealed);
}

/** Resolves a vault reference (`vault_…` id or unique name) in the workspace; null when there is none. */
/** Vaults of the workspace named by id or name, in one query: each reference found maps to its vault. */
export async function findVaultsByRefs(
  prisma: Database,
  workspaceId: string,
  refs: readonly string[],
): Promise<Map<string, { id: string; name: string }>> {
  if (refs.length === 0) return new Map();
  const rows = await prisma.vault.findMany({
    where: { workspaceId, OR: [{ id: { in: [...refs] } }, { name: { in: [...refs] } }] },
    select: { id: true, name: true },
  });
  return byRef(rows, refs);
}

/** The secret names (never values) of the workspace's vaults among `ids`: vault id → its keys. */
export async function findVaultSecretKeys(
  prisma: Database,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.vault.findMany({
    where: { workspaceId, id: { in: [...ids] } },
    select: { id: true, secretKeys: true },
  });
  return new Map(rows.map((r) => [r.id, r.secretKeys]));
}
