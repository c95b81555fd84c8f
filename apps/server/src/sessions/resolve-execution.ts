import type { AgentConfig, CreateSessionInput, SessionResource } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { invalidRequest } from "../http/error-envelope.js";

/** What a session runs with; resolved once at creation and stored, never resolved again. */
export interface ExecutionSettings {
  environmentId: string | null;
  vaultIds: string[];
  resources: SessionResource[];
}

type Explicit = Pick<CreateSessionInput, "environmentId" | "vaultIds" | "resources">;
type Defaults = AgentConfig["defaults"];

interface Scope {
  workspaceId: string;
  projectId: string;
}

/** Where a reference comes from, for error messages: the request body or the agent version's defaults. */
type Origin = "request" | "agent defaults";

/**
 * Execution defaults and precedence (spec): for each of `environmentId`, `vaultIds` and `resources`, the value of the
 * call when the field is present (`[]` = none, `environmentId: null` = the project's default environment), else the
 * agent version's `defaults`, else the account default (project default environment, no vaults, no memory).
 * References are checked where they come from, so a default pointing at something deleted since is a 422 too.
 */
export async function resolveExecutionSettings(
  prisma: Database,
  scope: Scope,
  explicit: Explicit,
  defaults: Defaults,
): Promise<ExecutionSettings> {
  const [environmentId, vaultIds, resources] = await Promise.all([
    resolveEnvironment(prisma, scope, explicit, defaults),
    "vaultIds" in explicit && explicit.vaultIds !== undefined
      ? resolveVaults(prisma, scope, explicit.vaultIds, "request")
      : resolveVaults(prisma, scope, defaults?.vaultIds ?? [], "agent defaults"),
    "resources" in explicit && explicit.resources !== undefined
      ? resolveMemoryMounts(
          prisma,
          scope,
          explicit.resources.map((r) => ({ ref: r.memoryStore, mode: r.mode })),
          "request",
        )
      : resolveMemoryMounts(
          prisma,
          scope,
          (defaults?.resources ?? []).map((r) => ({ ref: r.memoryStoreId, mode: r.mode })),
          "agent defaults",
        ),
  ]);
  return { environmentId, vaultIds, resources };
}

async function resolveEnvironment(
  prisma: Database,
  scope: Scope,
  explicit: Explicit,
  defaults: Defaults,
): Promise<string | null> {
  if ("environmentId" in explicit && explicit.environmentId !== undefined) {
    if (explicit.environmentId === null) return projectDefaultEnvironment(prisma, scope);
    return checkEnvironment(prisma, scope, explicit.environmentId, "request");
  }
  if (defaults?.environmentId) return checkEnvironment(prisma, scope, defaults.environmentId, "agent defaults");
  return projectDefaultEnvironment(prisma, scope);
}

async function projectDefaultEnvironment(prisma: Database, scope: Scope): Promise<string | null> {
  const project = await prisma.project.findUnique({
    where: { id: scope.projectId },
    select: { defaultEnvironmentId: true },
  });
  return project?.defaultEnvironmentId ?? null;
}

function from(origin: Origin): string {
  return origin === "request" ? "" : " (named by the agent version's defaults)";
}

async function checkEnvironment(prisma: Database, scope: Scope, id: string, origin: Origin): Promise<string> {
  const row = await prisma.environment.findFirst({
    where: { id, projectId: scope.projectId },
    select: { id: true, archivedAt: true },
  });
  if (!row) {
    throw new AppError(
      "session.environment_not_found",
      `Environment ${id}${from(origin)} was not found in this project`,
    );
  }
  if (row.archivedAt) {
    throw new AppError("session.environment_not_found", `Environment ${id}${from(origin)} is archived`);
  }
  return row.id;
}

/** Vaults by id or name in the workspace; the order of the references is kept and repeats are dropped. */
async function resolveVaults(prisma: Database, scope: Scope, refs: string[], origin: Origin): Promise<string[]> {
  if (refs.length === 0) return [];
  const rows = await prisma.vault.findMany({
    where: { workspaceId: scope.workspaceId, OR: [{ id: { in: refs } }, { name: { in: refs } }] },
    select: { id: true, name: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r.id]));
  const byName = new Map(rows.map((r) => [r.name, r.id]));
  const missing = refs.filter((ref) => !byId.has(ref) && !byName.has(ref));
  if (missing.length > 0) {
    throw new AppError(
      "session.vault_not_found",
      `Vault ${missing.join(", ")}${from(origin)} was not found in this workspace (id or name)`,
    );
  }
  return [...new Set(refs.map((ref) => byId.get(ref) ?? byName.get(ref)!))];
}

/** Memory stores by id or name in the project; names always come from the real store. */
async function resolveMemoryMounts(
  prisma: Database,
  scope: Scope,
  mounts: { ref: string; mode: SessionResource["mode"] }[],
  origin: Origin,
): Promise<SessionResource[]> {
  if (mounts.length === 0) return [];
  const refs = mounts.map((m) => m.ref);
  const rows = await prisma.memoryStore.findMany({
    where: { projectId: scope.projectId, OR: [{ id: { in: refs } }, { name: { in: refs } }] },
    select: { id: true, name: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byName = new Map(rows.map((r) => [r.name, r]));
  const missing = refs.filter((ref) => !byId.has(ref) && !byName.has(ref));
  if (missing.length > 0) {
    throw new AppError(
      "session.memory_store_not_found",
      `Memory store ${missing.join(", ")}${from(origin)} was not found in this project (id or name)`,
    );
  }
  const seen = new Map<string, number>();
  return mounts.map((mount, index) => {
    const store = byId.get(mount.ref) ?? byName.get(mount.ref)!;
    const first = seen.get(store.id);
    if (first !== undefined) {
      // Two mounts of one store would give it two modes.
      throw invalidRequest([
        {
          path: origin === "request" ? `body.resources.${index}.memoryStore` : `agent.defaults.resources.${index}`,
          message: `mounts memory store ${store.id} a second time (see entry ${first})`,
        },
      ]);
    }
    seen.set(store.id, index);
    return { memoryStoreId: store.id, memoryStoreName: store.name, mode: mount.mode };
  });
}
