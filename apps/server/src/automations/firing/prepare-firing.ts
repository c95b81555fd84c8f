import type { Logger } from "pino";
import { type LoadedAgentVersion, loadAgentVersion } from "../../agents/index.js";
import type { AppContext } from "../../context.js";
import { resolveExecutionReferences } from "../../execution/index.js";
import { AppError } from "../../http/app-error.js";
import type { ExecutionSettings } from "../../sessions/index.js";
import type { AutomationRow } from "../automation-row.js";

/** What a firing starts its session with, or why it cannot start one (the run is then recorded as `error`). */
export type PreparedFiring =
  | { ok: true; agent: LoadedAgentVersion; settings: ExecutionSettings }
  | { ok: false; error: string };

/**
 * Resolves, outside any transaction, what the firing's session runs with (spec rules 2 and 3): the pinned version
 * (one that vanished falls back to the current version, with an error logged), or the current one; an agent that is
 * gone or archived has no usable version. Then `environmentId`, `vaultIds` and `resources`: the automation's value;
 * blank (null or empty) falls to the agent version's defaults, then the account default (the project's default
 * environment, no vaults, no memory). References that vanished are dropped, and the session starts without them.
 */
export async function prepareFiring(ctx: AppContext, row: AutomationRow, logger: Logger): Promise<PreparedFiring> {
  const usable = await usableAgentVersion(ctx, row, logger);
  if ("error" in usable) return { ok: false, error: usable.error };

  const agent = usable.version;
  const defaults = agent.config.defaults;
  const environmentId = row.environmentId ?? defaults?.environmentId;
  const vaultIds = row.vaultIds.length > 0 ? row.vaultIds : (defaults?.vaultIds ?? []);
  const mounts = row.resources.length > 0 ? row.resources : (defaults?.resources ?? []);
  const scope = { workspaceId: row.workspaceId, projectId: row.projectId };
  const [resolved, project] = await Promise.all([
    resolveExecutionReferences(
      ctx.db.prisma,
      scope,
      { environmentId, vaultIds, resources: mounts.map((m) => ({ ref: m.memoryStoreId, mode: m.mode })) },
      "drop",
    ),
    ctx.db.prisma.project.findUnique({ where: { id: row.projectId }, select: { defaultEnvironmentId: true } }),
  ]);
  const settings: ExecutionSettings = {
    environmentId: resolved.environmentId ?? project?.defaultEnvironmentId ?? null,
    vaultIds: resolved.vaultIds ?? [],
    resources: resolved.resources ?? [],
  };
  const dropped = [
    ...(environmentId && !resolved.environmentId ? [environmentId] : []),
    ...vaultIds.filter((ref) => !settings.vaultIds.includes(ref)),
    ...mounts.map((m) => m.memoryStoreId).filter((ref) => !settings.resources.some((r) => r.memoryStoreId === ref)),
  ];
  if (dropped.length > 0) {
    logger.warn({ automationId: row.id, dropped }, "automation firing: references that vanished were dropped");
  }
  return { ok: true, agent, settings };
}

async function usableAgentVersion(
  ctx: AppContext,
  row: AutomationRow,
  logger: Logger,
): Promise<{ version: LoadedAgentVersion } | { error: string }> {
  let version: LoadedAgentVersion;
  try {
    version = await loadAgentVersion(ctx, row.projectId, row.agentId, row.agentVersion ?? undefined);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code !== "agent.version_not_found" || row.agentVersion === null) {
      return { error: `Agent ${row.agentId} has no usable version: ${error.message}` };
    }
    logger.error(
      { automationId: row.id, agentId: row.agentId, pinnedVersion: row.agentVersion },
      "automation firing: the pinned agent version vanished; firing with the current version",
    );
    try {
      version = await loadAgentVersion(ctx, row.projectId, row.agentId);
    } catch (fallbackError) {
      if (!(fallbackError instanceof AppError)) throw fallbackError;
      return { error: `Agent ${row.agentId} has no usable version: ${fallbackError.message}` };
    }
  }
  if (version.archivedAt) return { error: `Agent ${row.agentId} is archived: it cannot start new sessions` };
  return { version };
}
