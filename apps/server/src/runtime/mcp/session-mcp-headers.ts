import type { HeaderValue } from "@agent-platform/contract";
import { loadMcpHeaders } from "../../agents/index.js";
import type { AppContext } from "../../context.js";
import { AppError } from "../../http/app-error.js";
import { openVaultSecrets } from "../../vaults/index.js";

type VaultSecrets = Record<string, string>;

import type { SessionRuntimeInfo } from "../tools/types.js";

/** A header names a secret that none of the session's vaults holds: the server is not called at all. */
export class MissingVaultSecret extends Error {}

/**
 * Header values with their vault references resolved: `{ vaultKey, prefix? }` takes the secret `vaultKey` from the
 * first of `vaults` (the session's, in its `vaultIds` order) that holds it. Pure; throws `MissingVaultSecret` naming
 * the header and the key (never a value).
 */
export function resolveHeaderValues(
  headers: Record<string, HeaderValue>,
  vaults: readonly VaultSecrets[],
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string") {
      resolved[name] = value;
      continue;
    }
    const holder = vaults.find((vault) => Object.hasOwn(vault, value.vaultKey));
    if (!holder) {
      throw new MissingVaultSecret(
        `header ${name} needs the secret ${value.vaultKey}, which none of the session's vaults holds`,
      );
    }
    resolved[name] = `${value.prefix ?? ""}${holder[value.vaultKey]}`;
  }
  return resolved;
}

/**
 * The headers to send to one MCP server of a session's agent, read when the connection opens: the agent's sealed
 * credentials (a rotation applies at once), with vault references resolved from the vaults the session was created
 * with. A vault deleted since holds nothing. Never log the result.
 */
export async function sessionMcpHeaders(
  ctx: AppContext,
  session: Pick<SessionRuntimeInfo, "agentId" | "workspaceId" | "vaultIds">,
  serverName: string,
): Promise<Record<string, string>> {
  const stored = await loadMcpHeaders(ctx, session.agentId, serverName);
  if (Object.values(stored).every((value) => typeof value === "string")) return stored as Record<string, string>;
  const vaults = await Promise.all(
    session.vaultIds.map((vaultId) =>
      openVaultSecrets(ctx, session.workspaceId, vaultId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "vault.not_found") return {};
        throw error;
      }),
    ),
  );
  return resolveHeaderValues(stored, vaults);
}
