import type { AgentConfig, CreateSessionInput, SessionResource } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { type ExecutionReferences, resolveExecutionReferences } from "../execution/index.js";
import { invalidRequest } from "../http/error-envelope.js";
import { cachePerOwner } from "../lib/notified-cache.js";
import type { ExecutionSettings } from "./log/index.js";

type ResolveContext = Pick<AppContext, "db" | "listener">;

type Explicit = Pick<CreateSessionInput, "environmentId" | "vaultIds" | "resources">;
type Defaults = AgentConfig["defaults"];

interface Scope {
  workspaceId: string;
  projectId: string;
}

const CODES = {
  environment: "session.environment_not_found",
  vault: "session.vault_not_found",
  memoryStore: "session.memory_store_not_found",
} as const;

/**
 * Execution defaults and precedence (spec): for each of `environmentId`, `vaultIds` and `resources`, the value of the
 * call when the field is present (`[]` = none, `environmentId: null` = the project's default environment), else the
 * agent version's `defaults`, else the account default (project default environment, no vaults, no memory).
 * References are checked where they come from, so a default pointing at something deleted since is a 422 too.
 */
export async function resolveExecutionSettings(
  ctx: ResolveContext,
  scope: Scope,
  explicit: Explicit,
  defaults: Defaults,
): Promise<ExecutionSettings> {
  const fromCall: ExecutionReferences = {};
  const fromDefaults: ExecutionReferences = {};
  if (explicit.environmentId !== undefined) {
    if (explicit.environmentId !== null) fromCall.environmentId = explicit.environmentId;
  } else if (defaults?.environmentId) {
    fromDefaults.environmentId = defaults.environmentId;
  }
  if (explicit.vaultIds !== undefined) fromCall.vaultIds = explicit.vaultIds;
  else fromDefaults.vaultIds = defaults?.vaultIds ?? [];
  const mountsFromCall = explicit.resources !== undefined;
  if (explicit.resources !== undefined) {
    fromCall.resources = explicit.resources.map((r) => ({ ref: r.memoryStore, mode: r.mode }));
  } else {
    fromDefaults.resources = (defaults?.resources ?? []).map((r) => ({ ref: r.memoryStoreId, mode: r.mode }));
  }
  const { prisma } = ctx.db;
  const [call, agent, projectDefault] = await Promise.all([
    resolveExecutionReferences(prisma, scope, fromCall, { refuse: CODES }),
    resolveExecutionReferences(prisma, scope, fromDefaults, {
      refuse: CODES,
      origin: " (named by the agent version's defaults)",
    }),
    fromCall.environmentId || fromDefaults.environmentId ? null : projectDefaultEnvironment(ctx, scope),
  ]);
  const resources = call.resources ?? agent.resources ?? [];
  refuseRepeatedStores(resources, mountsFromCall);
  return {
    environmentId: call.environmentId ?? agent.environmentId ?? projectDefault,
    vaultIds: call.vaultIds ?? agent.vaultIds ?? [],
    resources,
  };
}

/**
 * Each process keeps the default environment of the projects it creates sessions in (set when a project is created);
 * a trigger on `projects` NOTIFYs `projects` with the id when it changes or the project goes.
 */
const projectDefaults = cachePerOwner<string | null>("projects");

function projectDefaultEnvironment(ctx: ResolveContext, scope: Scope): Promise<string | null> {
  return projectDefaults(ctx).get(scope.projectId, async () => {
    const project = await ctx.db.prisma.project.findUnique({
      where: { id: scope.projectId },
      select: { defaultEnvironmentId: true },
    });
    return project?.defaultEnvironmentId ?? null;
  });
}

/** Two mounts of one store would give it two modes. */
function refuseRepeatedStores(resources: SessionResource[], fromCall: boolean): void {
  const seen = new Map<string, number>();
  resources.forEach((mount, index) => {
    const first = seen.get(mount.memoryStoreId);
    if (first !== undefined) {
      throw invalidRequest([
        {
          path: fromCall ? `body.resources.${index}.memoryStore` : `agent.defaults.resources.${index}`,
          message: `mounts memory store ${mount.memoryStoreId} a second time (see entry ${first})`,
        },
      ]);
    }
    seen.set(mount.memoryStoreId, index);
  });
}
