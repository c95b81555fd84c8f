import { type Agent, LIMITS, type UpdateAgentInput } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import type { AuthContext } from "../http/auth-context.js";
import { invalidRequest } from "../http/error-envelope.js";
import { draftOfConfig, finalizeConfig, sameConfig } from "./agent-draft.js";
import { assertWritable, publishVersion, requireHead, writeCredentialsOnly } from "./agent-store.js";
import { applyAgentPatch, changedFields } from "./apply-patch.js";
import { credentialPlan, storedHeaderKeys, touchesCredentials } from "./mcp-credentials.js";
import { requireSnapshot } from "./read-agents.js";
import { referenceScope } from "./reference-scope.js";
import { REFERENCE_FIELDS, resolveReferences } from "./resolve-references.js";
import { headerKeysOfConfig, toAgent } from "./serialize.js";

/**
 * Update: patch the current configuration, check the references of the fields that changed (so an unrelated edit is
 * never blocked by, say, a subagent archived since), then publish `current + 1` under the optimistic lock. A patch
 * that changes nothing publishes nothing; one that changes only MCP header values updates the sealed store and
 * publishes nothing either (versions never hold header values).
 */
export async function updateAgent(
  ctx: AppContext,
  auth: AuthContext,
  agentId: string,
  input: UpdateAgentInput,
): Promise<Agent> {
  const { version: expectedVersion, ...patch } = input;
  const prisma = ctx.db.prisma;
  const head = await requireHead(prisma, auth.projectId, agentId);
  assertWritable(head, expectedVersion);
  const current = await requireSnapshot(prisma, agentId, head.currentVersion);

  const before = draftOfConfig(current.config);
  const patched = applyAgentPatch(before, patch);
  if (Object.keys(patched.metadata ?? {}).length > LIMITS.metadataEntries) {
    throw invalidRequest([
      { path: "body.metadata", message: `at most ${LIMITS.metadataEntries} entries after merging` },
    ]);
  }
  const changed = changedFields(before, patched);
  const toCheck = REFERENCE_FIELDS.filter((field) => changed.has(field));
  const draft = await resolveReferences(ctx, referenceScope(auth, agentId), patched, toCheck);
  const plan = credentialPlan(draft, current.config);
  const guard = { projectId: auth.projectId, agentId, expectedVersion };

  if (sameConfig(finalizeConfig(draft, new Map()), current.config)) {
    if (!touchesCredentials(plan)) return toAgent(head, current, await storedHeaderKeys(prisma, agentId));
    const written = await writeCredentialsOnly(ctx, guard, plan);
    return toAgent(written.head, current, written.headerKeys);
  }
  const published = await publishVersion(ctx, guard, draft, plan);
  return toAgent(published.head, published.snapshot, headerKeysOfConfig(published.snapshot.config));
}
