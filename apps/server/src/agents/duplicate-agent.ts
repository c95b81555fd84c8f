import type { Agent, DuplicateAgentInput } from "@agent-platform/contract";
import { LIMITS } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import type { AuthContext } from "../http/auth-context.js";
import { draftOfConfig } from "./agent-draft.js";
import { insertAgent, requireHead } from "./agent-store.js";
import { requireSnapshot } from "./read-agents.js";
import { asInapplicable, referenceScope } from "./reference-scope.js";
import { REFERENCE_FIELDS, resolveReferences } from "./resolve-references.js";
import { headerKeysOfConfig, toAgent } from "./serialize.js";

const COPY_SUFFIX = " (cópia)";

/** `<source name> (cópia)`, the source name shortened (by whole characters) so the result fits the name limit. */
export function copyName(sourceName: string): string {
  const chars = Array.from(sourceName);
  while (chars.join("").length + COPY_SUFFIX.length > LIMITS.agentName) chars.pop();
  return `${chars.join("").trimEnd()}${COPY_SUFFIX}`;
}

/**
 * Duplicate copies the source's current configuration server side into a new agent at version 1, through the create
 * validation, and gives the clone a copy of the source's sealed MCP credentials. An archived source duplicates
 * normally (the documented way to revive it); the clone is active.
 */
export async function duplicateAgent(
  ctx: AppContext,
  auth: AuthContext,
  sourceId: string,
  input: DuplicateAgentInput,
): Promise<Agent> {
  const prisma = ctx.db.prisma;
  const head = await requireHead(prisma, auth.projectId, sourceId);
  const source = await requireSnapshot(prisma, sourceId, head.currentVersion);
  const copy = {
    ...draftOfConfig(source.config),
    name: input.name ?? copyName(source.config.name),
    ...(input.model !== undefined ? { model: input.model } : {}),
  };
  const draft = await asInapplicable(
    "agent.duplicate_invalid",
    (cause) => `Agent ${sourceId} cannot be duplicated: ${cause}`,
    resolveReferences(ctx, referenceScope(auth), copy, REFERENCE_FIELDS),
  );
  const servers = (draft.mcpServers ?? []).map((server) => server.name);
  const created = await insertAgent(ctx, auth.projectId, draft, { copyFrom: sourceId, servers });
  return toAgent(created.head, created.snapshot, headerKeysOfConfig(created.snapshot.config));
}
