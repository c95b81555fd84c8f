import type { Vault } from "@agent-platform/contract";
import type { Vault as VaultRow } from "@agent-platform/db";

/** The sealed values never leave this area: only the key names are serialised. */
export function toVault(row: VaultRow): Vault {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    secretKeys: [...row.secretKeys].sort(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
