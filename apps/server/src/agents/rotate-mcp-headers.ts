import { type HeaderValue, LIMITS, type McpHeadersRotation } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import { invalidRequest } from "../http/error-envelope.js";
import { type AgentHead, agentNotFound, assertWritable, HEAD_COLUMNS } from "./agent-store.js";
import { headerKeysOf, mergeHeaders } from "./mcp-credentials.js";
import { requireSnapshot } from "./read-agents.js";

/**
 * Rotation sets header values of a server declared in the current configuration, merged by name into the sealed
 * store. It publishes no version and takes effect at once: the runtime opens the store when it connects. The agent row
 * is locked for the transaction so that a concurrent update (which may remove the server) or rotation is serialised.
 */
export async function rotateMcpHeaders(
  ctx: AppContext,
  auth: AuthContext,
  agentId: string,
  serverName: string,
  headers: Record<string, HeaderValue>,
): Promise<McpHeadersRotation> {
  const prisma = ctx.db.prisma;
  return prisma.$transaction(async (tx) => {
    const [head] = await tx.$queryRaw<AgentHead[]>`
      SELECT ${HEAD_COLUMNS} FROM agents WHERE "id" = ${agentId} AND "projectId" = ${auth.projectId} FOR UPDATE`;
    if (!head) throw agentNotFound(agentId);
    assertWritable(head);
    const current = await requireSnapshot(tx, agentId, head.currentVersion);
    if (!current.config.mcpServers.some((server) => server.name === serverName)) {
      throw new AppError(
        "agent.mcp_server_not_found",
        `Agent ${agentId} declares no MCP server "${serverName}" in its current version (${head.currentVersion})`,
      );
    }
    const stored = await tx.agentMcpCredential.findUnique({
      where: { agentId_serverName: { agentId, serverName } },
      select: { sealed: true },
    });
    const merged = mergeHeaders(stored ? ctx.secrets.open<Record<string, HeaderValue>>(stored.sealed) : {}, headers);
    if (Object.keys(merged).length > LIMITS.mcpHeaders) {
      throw invalidRequest([{ path: "body.headers", message: `at most ${LIMITS.mcpHeaders} headers per server` }]);
    }
    const data = { sealed: ctx.secrets.seal(merged), headerKeys: headerKeysOf(merged) };
    await tx.agentMcpCredential.upsert({
      where: { agentId_serverName: { agentId, serverName } },
      create: { agentId, serverName, ...data },
      update: data,
    });
    await tx.$executeRaw`UPDATE agents SET "updatedAt" = now() WHERE "id" = ${agentId}`;
    return { agentId, serverName, version: head.currentVersion, headerKeys: data.headerKeys };
  });
}
