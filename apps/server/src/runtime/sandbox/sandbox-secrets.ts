import type { AppContext } from "../../context.js";
import type { ExecutionEnvironment } from "../../environments/index.js";
import { openVaultSecrets } from "../../vaults/index.js";
import { SandboxUnavailable } from "./sandbox-errors.js";

/** The environment's secret variables, opened from their vaults (each vault once): `[name, value]` pairs. */
export async function openSandboxSecrets(
  ctx: AppContext,
  workspaceId: string,
  environment: ExecutionEnvironment,
): Promise<Array<[string, string]>> {
  const refs = Object.entries(environment.secrets);
  if (refs.length === 0) return [];
  const vaults = new Map<string, Promise<Record<string, string>>>();
  const out: Array<[string, string]> = [];
  for (const [name, ref] of refs) {
    let vault = vaults.get(ref.vaultId);
    if (!vault) {
      vault = openVaultSecrets(ctx, workspaceId, ref.vaultId).catch(() => {
        throw new SandboxUnavailable(`Secret variable ${name}: vault ${ref.vaultId} no longer exists`);
      });
      vaults.set(ref.vaultId, vault);
    }
    const value = (await vault)[ref.key];
    if (value === undefined)
      throw new SandboxUnavailable(`Secret variable ${name}: vault ${ref.vaultId} has no ${ref.key}`);
    out.push([name, value]);
  }
  return out;
}
