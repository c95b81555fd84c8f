import type { AppContext } from "../context.js";
import { resolveExecutionReferences } from "../execution/index.js";
import { AppError } from "../http/app-error.js";
import { existingKnowledgeBaseIds } from "../knowledge-bases/index.js";
import { modelCatalogueOf, providerSettingsOf } from "../models/index.js";
import type { AgentDraft } from "./agent-draft.js";
import { checkGuardrails } from "./check-guardrails.js";
import { checkModel } from "./check-model.js";
import { resolveRoster } from "./resolve-roster.js";

/** Fields whose values point at other resources (or at a model provider) and are checked on write. */
export const REFERENCE_FIELDS = [
  "model",
  "multiagent",
  "knowledgeBases",
  "defaults",
  "skills",
  "serverlessTools",
  "guardrails",
] as const;
export type ReferenceField = (typeof REFERENCE_FIELDS)[number];

export interface ReferenceScope {
  projectId: string;
  workspaceId: string;
  /** The agent being written (absent on create): a roster may not name it. */
  agentId?: string;
}

type Defaults = NonNullable<AgentDraft["defaults"]>;

/**
 * Checks the given fields of a draft against the resources they name and returns the draft in stored form: vaults and
 * memory stores as ids, `memoryStoreName` from the real store, roster versions as numbers. One query per table, run
 * together; when several references are wrong, the first in field order is reported.
 */
export async function resolveReferences(
  ctx: AppContext,
  scope: ReferenceScope,
  draft: AgentDraft,
  fields: Iterable<ReferenceField>,
): Promise<AgentDraft> {
  const check = new Set(fields);
  const settings = providerSettingsOf(ctx.config.env);
  const catalogue = modelCatalogueOf(ctx.config.env);
  if (check.has("model")) checkModel(draft.model, settings, "model", catalogue);
  const multiagent = check.has("multiagent") ? draft.multiagent : undefined;
  for (const entry of multiagent?.roster ?? []) {
    if (entry.model) checkModel(entry.model, settings, `Roster entry "${entry.role}": model`, catalogue);
  }
  if (check.has("guardrails")) checkGuardrails(draft.guardrails ?? [], "body.guardrails", settings, catalogue);
  const roster = multiagent ? resolveRoster(ctx.db.pool, scope, multiagent.roster) : undefined;
  const knowledgeBases = check.has("knowledgeBases")
    ? checkKnowledgeBases(ctx, scope, draft.knowledgeBases ?? [])
    : undefined;
  const defaults = check.has("defaults") && draft.defaults ? resolveDefaults(ctx, scope, draft.defaults) : undefined;
  const skills = check.has("skills") ? checkSkills(ctx, scope, draft.skills ?? []) : undefined;
  const tools = check.has("serverlessTools")
    ? checkServerlessTools(ctx, scope, draft.serverlessTools ?? [])
    : undefined;
  // All queries run together; the first failure in field order is the one reported, so the answer is stable.
  const settled = await Promise.allSettled([roster, knowledgeBases, defaults, skills, tools]);
  const failure = settled.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return {
    ...draft,
    ...(multiagent && roster ? { multiagent: { ...multiagent, roster: await roster } } : {}),
    ...(defaults ? { defaults: await defaults } : {}),
  };
}

async function checkKnowledgeBases(ctx: AppContext, scope: ReferenceScope, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const known = await existingKnowledgeBaseIds(ctx.db.prisma, scope.projectId, ids);
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw new AppError(
      "agent.unknown_knowledge_base",
      `Knowledge base${missing.length > 1 ? "s" : ""} ${missing.join(", ")} not found in this project`,
      { knowledgeBases: missing },
    );
  }
}

const DEFAULTS_CODES = {
  environment: "agent.environment_not_found",
  vault: "agent.vault_not_found",
  memoryStore: "agent.memory_store_not_found",
} as const;

/** `defaults` in stored form: vaults and memory stores as ids, `memoryStoreName` from the real store. */
async function resolveDefaults(ctx: AppContext, scope: ReferenceScope, defaults: Defaults): Promise<Defaults> {
  const resolved = await resolveExecutionReferences(
    ctx.db.prisma,
    scope,
    {
      ...(defaults.environmentId ? { environmentId: defaults.environmentId } : {}),
      ...(defaults.vaultIds ? { vaultIds: defaults.vaultIds } : {}),
      ...(defaults.resources
        ? { resources: defaults.resources.map((r) => ({ ref: r.memoryStoreId, mode: r.mode })) }
        : {}),
    },
    { refuse: DEFAULTS_CODES },
  );
  return {
    ...(resolved.environmentId ? { environmentId: resolved.environmentId } : {}),
    ...(resolved.vaultIds ? { vaultIds: resolved.vaultIds } : {}),
    ...(resolved.resources ? { resources: resolved.resources } : {}),
  };
}

async function checkSkills(
  ctx: AppContext,
  scope: ReferenceScope,
  refs: { skillId: string; version: number }[],
): Promise<void> {
  if (refs.length === 0) return;
  const found = await ctx.db.prisma.skillVersion.findMany({
    where: {
      OR: refs.map((r) => ({ skillId: r.skillId, version: r.version })),
      skill: { workspaceId: scope.workspaceId },
    },
    select: { skillId: true, version: true, skill: { select: { archivedAt: true } } },
  });
  for (const ref of refs) {
    const row = found.find((f) => f.skillId === ref.skillId && f.version === ref.version);
    if (!row) {
      throw new AppError("agent.skill_not_found", `Skill ${ref.skillId} version ${ref.version} was not found`, {
        skillId: ref.skillId,
        version: ref.version,
      });
    }
    if (row.skill.archivedAt) {
      throw new AppError("agent.skill_not_found", `Skill ${ref.skillId} is archived`, { skillId: ref.skillId });
    }
  }
}

async function checkServerlessTools(
  ctx: AppContext,
  scope: ReferenceScope,
  refs: { toolId: string; version: number }[],
): Promise<void> {
  if (refs.length === 0) return;
  const found = await ctx.db.prisma.serverlessToolVersion.findMany({
    where: { OR: refs.map((r) => ({ toolId: r.toolId, version: r.version })), tool: { projectId: scope.projectId } },
    select: { toolId: true, version: true, tool: { select: { archivedAt: true } } },
  });
  for (const ref of refs) {
    const row = found.find((f) => f.toolId === ref.toolId && f.version === ref.version);
    if (!row) {
      throw new AppError(
        "serverless.tool_not_found",
        `Serverless tool ${ref.toolId} version ${ref.version} was not found in this project`,
        { toolId: ref.toolId, version: ref.version },
      );
    }
    if (row.tool.archivedAt) {
      throw new AppError("serverless.tool_not_found", `Serverless tool ${ref.toolId} is archived`, {
        toolId: ref.toolId,
      });
    }
  }
}
