import type { ErrorCode, SessionResource } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { findEnvironment } from "../environments/index.js";
import { AppError } from "../http/app-error.js";
import { findMemoryStoresByRefs } from "../memory-stores/index.js";
import { findVaultsByRefs } from "../vaults/index.js";

/** What a session runs with: an environment, vaults and memory mounts, each named by id (or, on write, by name). */
export interface ExecutionReferences {
  environmentId?: string;
  vaultIds?: readonly string[];
  resources?: readonly { ref: string; mode: SessionResource["mode"] }[];
}

export interface ResolvedReferences {
  /** Absent when not asked for, or (when dropping) when it no longer exists or is archived. */
  environmentId?: string;
  vaultIds?: string[];
  resources?: SessionResource[];
}

/** The error codes of the area that asks (agents, sessions, automations each have their own). */
export interface ReferenceErrorCodes {
  environment: ErrorCode;
  vault: ErrorCode;
  memoryStore: ErrorCode;
}

export type MissingReferences =
  /** Refuse with the area's 422 code; `origin` is added to the message (e.g. " (named by the agent's defaults)"). */
  | { refuse: ReferenceErrorCodes; origin?: string }
  /** Leave out what vanished (an automation firing: the session starts without it). */
  | "drop";

interface Scope {
  workspaceId: string;
  projectId: string;
}

/**
 * The one resolver of execution references, for agents (`defaults`), sessions and automations: the environment by id in
 * the project (archived counts as missing), vaults by id or name in the workspace, memory stores by id or name in the
 * project; returned as ids, memory mounts with the store's real name, repeats of a vault dropped. One query per kind of
 * reference, run together. What is missing is refused with the caller's codes, or dropped.
 */
export async function resolveExecutionReferences(
  prisma: Database,
  scope: Scope,
  refs: ExecutionReferences,
  missing: MissingReferences,
): Promise<ResolvedReferences> {
  const vaultRefs = refs.vaultIds ?? [];
  const storeRefs = (refs.resources ?? []).map((r) => r.ref);
  const [environment, vaults, stores] = await Promise.all([
    refs.environmentId ? findEnvironment(prisma, scope.projectId, refs.environmentId) : null,
    findVaultsByRefs(prisma, scope.workspaceId, vaultRefs),
    findMemoryStoresByRefs(prisma, scope.projectId, storeRefs),
  ]);
  // Refuses with the caller's code, unless what is missing is to be dropped.
  const refuse = (code: keyof ReferenceErrorCodes, message: string) => {
    if (missing !== "drop") throw new AppError(missing.refuse[code], message);
  };
  const origin = missing === "drop" ? "" : (missing.origin ?? "");
  const out: ResolvedReferences = {};

  if (refs.environmentId) {
    if (environment && !environment.archivedAt) out.environmentId = environment.id;
    else {
      const why = environment ? "is archived" : "was not found in this project";
      refuse("environment", `Environment ${refs.environmentId}${origin} ${why}`);
    }
  }
  if (refs.vaultIds) {
    const unknown = vaultRefs.filter((ref) => !vaults.has(ref));
    if (unknown.length > 0) {
      refuse("vault", `Vault ${unknown.join(", ")}${origin} was not found in this workspace (id or name)`);
    }
    out.vaultIds = [...new Set(vaultRefs.flatMap((ref) => vaults.get(ref)?.id ?? []))];
  }
  if (refs.resources) {
    const unknown = storeRefs.filter((ref) => !stores.has(ref));
    if (unknown.length > 0) {
      refuse("memoryStore", `Memory store ${unknown.join(", ")}${origin} was not found in this project (id or name)`);
    }
    out.resources = refs.resources.flatMap((mount) => {
      const store = stores.get(mount.ref);
      return store ? [{ memoryStoreId: store.id, memoryStoreName: store.name, mode: mount.mode }] : [];
    });
  }
  return out;
}
