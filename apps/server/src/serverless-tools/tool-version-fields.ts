import type { Database } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { findVaultsByRefs } from "../vaults/index.js";

/** The fields a version snapshots; comparing them tells whether a publish changes anything. */
export interface ToolVersionFields {
  description: string;
  inputSchema: Record<string, unknown>;
  url: string;
  vaultId: string | null;
}

/** JSON with object keys sorted, so two schemas that differ only in key order compare equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

export function sameVersionFields(a: ToolVersionFields, b: ToolVersionFields): boolean {
  return (
    a.description === b.description &&
    a.url === b.url &&
    a.vaultId === b.vaultId &&
    canonicalJson(a.inputSchema) === canonicalJson(b.inputSchema)
  );
}

/** A vault reference (id or name) of the workspace, stored as the id; unknown → 422. */
export async function resolveToolVault(prisma: Database, workspaceId: string, ref: string): Promise<string> {
  const vault = (await findVaultsByRefs(prisma, workspaceId, [ref])).get(ref);
  if (!vault) {
    throw new AppError("serverless_tool.vault_not_found", `Vault "${ref}" was not found in this workspace`);
  }
  return vault.id;
}
