import type { Agent } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import type { AuthContext } from "../http/auth-context.js";
import { draftOfConfig, finalizeConfig, sameConfig } from "./agent-draft.js";
import { assertWritable, publishVersion, requireHead } from "./agent-store.js";
import { credentialPlan, storedHeaderKeys } from "./mcp-credentials.js";
import { requireSnapshot } from "./read-agents.js";
import { asInapplicable, referenceScope } from "./reference-scope.js";
import { REFERENCE_FIELDS, resolveReferences } from "./resolve-references.js";
import { headerKeysOfConfig, toAgent } from "./serialize.js";

/**
 * Restore copies an older snapshot as `current + 1` (history is untouched). The snapshot is validated again in full,
 * roster included. Its MCP servers keep today's sealed credentials (a rotated credential is never rolled back) while
 * their URL is the one they have today; a server the snapshot points at another URL loses its credential, and servers
 * it does not declare lose theirs, as with any update.
 */
export async function restoreAgentVersion(
  ctx: AppContext,
  auth: AuthContext,
  agentId: string,
  sourceVersion: number,
  expectedVersion: number,
): Promise<Agent> {
  const prisma = ctx.db.prisma;
  const head = await requireHead(prisma, auth.projectId, agentId);
  assertWritable(head, expectedVersion);
  const [source, current] = await Promise.all([
    requireSnapshot(prisma, agentId, sourceVersion),
    requireSnapshot(prisma, agentId, head.currentVersion),
  ]);
  const draft = await asInapplicable(
    "agent.restore_invalid",
    (cause) => `Version ${sourceVersion} of agent ${agentId} can no longer be restored: ${cause}`,
    resolveReferences(ctx, referenceScope(auth, agentId), draftOfConfig(source.config), REFERENCE_FIELDS),
  );
  if (sameConfig(finalizeConfig(draft, new Map()), current.config)) {
    return toAgent(head, current, await storedHeaderKeys(prisma, agentId));
  }
  const guard = { projectId: auth.projectId, agentId, expectedVersion };
  const published = await publishVersion(ctx, guard, draft, credentialPlan(draft, current.config));
  return toAgent(published.head, published.snapshot, headerKeysOfConfig(published.snapshot.config));
}
