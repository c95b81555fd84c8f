import type { DefaultsResourceInputSchema, DefaultsResourceSchema } from "@agent-platform/contract";
import type { z } from "zod";
import { loadAgentVersion } from "../agents/index.js";
import type { AppContext } from "../context.js";
import { findEnvironment } from "../environments/index.js";
import { AppError } from "../http/app-error.js";
import { invalidRequest } from "../http/error-envelope.js";
import { findMemoryStoresByRefs } from "../memory-stores/index.js";
import { findVaultsByRefs } from "../vaults/index.js";

type ResourceInput = z.infer<typeof DefaultsResourceInputSchema>;
type StoredResource = z.infer<typeof DefaultsResourceSchema>;

interface Scope {
  workspaceId: string;
  projectId: string;
}

/** The references of an automation as stored: vaults and memory stores by id, store names from the real stores. */
export interface StoredReferences {
  agentVersion: number | null;
  environmentId: string | null;
  vaultIds: string[];
  resources: StoredResource[];
}

/** References as a write sends them; absent fields are not written. */
export interface ReferenceInput {
  agentVersion?: number | null;
  environmentId?: string | null;
  vaultIds?: string[];
  resources?: ResourceInput[];
}

/**
 * Checks the references a write sends (spec rule 1) and returns them in stored form. With `current` (PATCH) only what
 * actually changed is checked: a pin equal to the stored one, the stored environment, and vaults or memory stores
 * already stored are kept without looking at them again, so an agent archived since (or a store deleted since) does
 * not block an unrelated edit. On create (`current` absent) the agent must exist (404 `agent.not_found`) and be
 * active. One query per kind of reference, run together; the first failure in field order is reported.
 */
export async function resolveWriteReferences(
  ctx: AppContext,
  scope: Scope,
  agentId: string,
  input: ReferenceInput,
  current?: StoredReferences,
): Promise<Partial<StoredReferences>> {
  const prisma = ctx.db.prisma;
  const pinChanged = input.agentVersion !== undefined && input.agentVersion !== (current?.agentVersion ?? null);
  const checkAgent = !current || (pinChanged && input.agentVersion !== null);
  const environmentId =
    input.environmentId && input.environmentId !== current?.environmentId ? input.environmentId : undefined;
  const newVaults = (input.vaultIds ?? []).filter((ref) => !current?.vaultIds.includes(ref));
  const storedMounts = new Map((current?.resources ?? []).map((r) => [r.memoryStoreId, r]));
  const newStores = (input.resources ?? []).map((r) => r.memoryStoreId).filter((ref) => !storedMounts.has(ref));

  const settled = await Promise.allSettled([
    checkAgent ? checkAgentPin(ctx, scope.projectId, agentId, input.agentVersion ?? null) : null,
    environmentId ? findEnvironment(prisma, scope.projectId, environmentId) : null,
    findVaultsByRefs(prisma, scope.workspaceId, newVaults),
    findMemoryStoresByRefs(prisma, scope.projectId, newStores),
  ]);
  const failure = settled.find((s) => s.status === "rejected");
  if (failure) throw failure.reason;
  const [, environment, vaults, stores] = settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as [
    unknown,
    Awaited<ReturnType<typeof findEnvironment>>,
    Awaited<ReturnType<typeof findVaultsByRefs>>,
    Awaited<ReturnType<typeof findMemoryStoresByRefs>>,
  ];

  if (environmentId && (!environment || environment.archivedAt)) {
    const why = environment ? "is archived" : "was not found in this project";
    throw new AppError("automation.environment_not_found", `Environment ${environmentId} ${why}`);
  }
  const missingVaults = newVaults.filter((ref) => !vaults.has(ref));
  if (missingVaults.length > 0) {
    throw new AppError(
      "automation.vault_not_found",
      `Vault ${missingVaults.join(", ")} was not found in this workspace (id or name)`,
    );
  }
  const missingStores = newStores.filter((ref) => !stores.has(ref));
  if (missingStores.length > 0) {
    throw new AppError(
      "automation.memory_store_not_found",
      `Memory store ${missingStores.join(", ")} was not found in this project (id or name)`,
    );
  }

  const out: Partial<StoredReferences> = {};
  if (input.agentVersion !== undefined) out.agentVersion = input.agentVersion;
  if (input.environmentId !== undefined) out.environmentId = input.environmentId;
  if (input.vaultIds) {
    out.vaultIds = [...new Set(input.vaultIds.map((ref) => vaults.get(ref)?.id ?? ref))];
  }
  if (input.resources) {
    const mounts = input.resources.map((r): StoredResource => {
      const store = stores.get(r.memoryStoreId);
      const kept = storedMounts.get(r.memoryStoreId);
      return store
        ? { memoryStoreId: store.id, memoryStoreName: store.name, mode: r.mode }
        : { memoryStoreId: kept!.memoryStoreId, memoryStoreName: kept!.memoryStoreName, mode: r.mode };
    });
    refuseRepeatedStores(mounts);
    out.resources = mounts;
  }
  return out;
}

/** The agent exists in the project and is active; a pinned version exists. */
async function checkAgentPin(ctx: AppContext, projectId: string, agentId: string, pin: number | null): Promise<void> {
  let agent: Awaited<ReturnType<typeof loadAgentVersion>>;
  try {
    agent = await loadAgentVersion(ctx, projectId, agentId, pin ?? undefined);
  } catch (error) {
    if (error instanceof AppError && error.code === "agent.version_not_found") {
      throw new AppError("automation.agent_version_not_found", `Agent ${agentId} has no version ${pin}`);
    }
    throw error;
  }
  if (agent.archivedAt) {
    throw new AppError(
      "automation.agent_archived",
      `Agent ${agentId} is archived: an automation cannot start sessions with it (duplicate it to revive it)`,
    );
  }
}

/** A store named twice (by id and by name) would be mounted with two modes. */
function refuseRepeatedStores(mounts: StoredResource[]): void {
  const seen = new Set<string>();
  for (const [index, mount] of mounts.entries()) {
    if (seen.has(mount.memoryStoreId)) {
      throw invalidRequest([
        { path: `body.resources.${index}.memoryStoreId`, message: `mounts memory store ${mount.memoryStoreId} twice` },
      ]);
    }
    seen.add(mount.memoryStoreId);
  }
}
