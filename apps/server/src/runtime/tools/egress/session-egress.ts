import { loadWorkspaceEgressPolicy, type MergedEgressPolicy, mergeEgressPolicies } from "../../../governance/index.js";
import type { ToolRunContext } from "../types.js";

/**
 * The effective egress policy of a call: the workspace policy as it is now (read on every call, so a change applies at
 * once, also to running sessions) merged with the agent version's `egressPolicy`.
 */
export async function sessionEgressPolicy(
  run: Pick<ToolRunContext, "ctx" | "session" | "agent">,
): Promise<MergedEgressPolicy> {
  const workspace = await loadWorkspaceEgressPolicy(run.ctx.db.prisma, run.session.workspaceId);
  return mergeEgressPolicies(workspace, run.agent.egressPolicy);
}
