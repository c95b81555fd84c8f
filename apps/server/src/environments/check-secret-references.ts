import type { SecretReference } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { findVaultSecretKeys } from "../vaults/index.js";

/**
 * Secret variables must name a vault of the workspace and a secret it holds (checked on write; a secret removed later
 * makes the call that needs it fail with a readable tool error).
 */
export async function checkSecretReferences(
  prisma: Database,
  workspaceId: string,
  secrets: Record<string, SecretReference> | undefined,
): Promise<void> {
  if (!secrets) return;
  const refs = Object.entries(secrets);
  const keys = await findVaultSecretKeys(prisma, workspaceId, [...new Set(refs.map(([, r]) => r.vaultId))]);
  for (const [name, ref] of refs) {
    const held = keys.get(ref.vaultId);
    if (!held) {
      throw new AppError("environment.vault_not_found", `secrets.${name}: vault ${ref.vaultId} was not found`, {
        variable: name,
        vaultId: ref.vaultId,
      });
    }
    if (!held.includes(ref.key)) {
      throw new AppError(
        "environment.secret_not_found",
        `secrets.${name}: vault ${ref.vaultId} holds no secret named ${ref.key}`,
        { variable: name, vaultId: ref.vaultId, key: ref.key },
      );
    }
  }
}
