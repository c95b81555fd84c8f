import type { AgentPlatform, Session } from "@agent-platform/sdk";
import { useQuery } from "@tanstack/react-query";
import type { TimelineRow } from "./timeline-rows.js";

const PREFIX = "delegate_to_";

/**
 * The child session of each delegation (`delegate_to_<role>` tool use) of this session, by tool-use id. A foreground
 * delegation's result is the child's answer, without its id: the children are the sessions of the role's agent whose
 * `parentSessionId` is this session, matched to the role's tool uses in order (each tool use creates one child).
 */
export function useDelegations(
  client: AgentPlatform,
  session: Session | undefined,
  rows: TimelineRow[],
): Map<string, string> {
  const delegations = rows.filter(
    (row): row is Extract<TimelineRow, { kind: "tool" }> => row.kind === "tool" && row.use.name.startsWith(PREFIX),
  );
  const answered = delegations.filter((row) => row.result).length;
  const query = useQuery({
    queryKey: ["session", session?.id, "delegations", delegations.length, answered],
    enabled: session !== undefined && delegations.length > 0,
    queryFn: async () => {
      if (!session) return new Map<string, string>();
      const coordinator = await client.agents.get(session.agent.id, { version: session.agent.version });
      const links = new Map<string, string>();
      for (const entry of coordinator.multiagent?.roster ?? []) {
        const uses = delegations.filter((row) => row.use.name === `${PREFIX}${entry.role}`);
        if (uses.length === 0) continue;
        const page = await client.sessions.list({ agent: entry.agentId, limit: 100 });
        const children = page.data
          .filter((child) => child.parentSessionId === session.id)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
        uses.forEach((row, i) => {
          const child = children[i];
          if (child) links.set(row.use.id, child.id);
        });
      }
      return links;
    },
  });
  return query.data ?? new Map();
}
