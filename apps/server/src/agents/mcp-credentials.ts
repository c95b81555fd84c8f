import type { AgentConfig, HeaderValue } from "@agent-platform/contract";
import type { Database, Prisma } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import type { AgentDraft } from "./agent-draft.js";

/** Stored header values: literal, or references to a secret of the session's vaults (resolved by the runtime). */
type Headers = Record<string, HeaderValue>;
type Tx = Prisma.TransactionClient;

/**
 * What a write does to the sealed store, derived from the draft's `mcpServers`:
 * - a server that sends `headers` gets exactly that set (`{}` erases its credential);
 * - a server that omits `headers` keeps its stored credential, unless its `url` differs from the one it has in the
 *   version being replaced: credentials follow the URL, so moving a server to another URL without sending headers
 *   erases them (they were given for the old one);
 * - a server that is no longer declared loses its credential (a renamed server is a new name: it starts without).
 */
export interface CredentialPlan {
  servers: string[];
  write: Map<string, Headers>;
  erase: string[];
}

/** `current`: the configuration the write replaces (update, restore); none for a new agent. */
export function credentialPlan(draft: AgentDraft, current?: Pick<AgentConfig, "mcpServers">): CredentialPlan {
  const plan: CredentialPlan = { servers: [], write: new Map(), erase: [] };
  const urls = new Map((current?.mcpServers ?? []).map((server) => [server.name, server.url]));
  for (const server of draft.mcpServers ?? []) {
    plan.servers.push(server.name);
    if (server.headers === undefined) {
      const before = urls.get(server.name);
      if (before !== undefined && !sameUrl(before, server.url)) plan.erase.push(server.name);
      continue;
    }
    if (Object.keys(server.headers).length === 0) plan.erase.push(server.name);
    else plan.write.set(server.name, server.headers);
  }
  return plan;
}

/** Equal after URL normalisation (`HTTPS://Host:443/p` is `https://host/p`); any other difference is a move. */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** Whether the plan writes or erases a credential (removals come with a configuration change anyway). */
export function touchesCredentials(plan: CredentialPlan): boolean {
  return plan.write.size > 0 || plan.erase.length > 0;
}

/** Header names as reads show them: sorted case-insensitively (by code point, independent of the locale). */
export function headerKeysOf(headers: Headers): string[] {
  const lower = (name: string) => name.toLowerCase();
  return Object.keys(headers).sort((a, b) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0));
}

/** Applies a plan inside the publishing transaction; returns the header names stored afterwards, by server. */
export async function applyCredentialPlan(
  tx: Tx,
  ctx: AppContext,
  agentId: string,
  plan: CredentialPlan,
): Promise<Map<string, string[]>> {
  const kept = plan.servers.filter((name) => !plan.erase.includes(name));
  await tx.agentMcpCredential.deleteMany({ where: { agentId, serverName: { notIn: kept } } });
  for (const [serverName, headers] of plan.write) {
    const data = { sealed: ctx.secrets.seal(headers), headerKeys: headerKeysOf(headers) };
    await tx.agentMcpCredential.upsert({
      where: { agentId_serverName: { agentId, serverName } },
      create: { agentId, serverName, ...data },
      update: data,
    });
  }
  return storedHeaderKeys(tx, agentId);
}

/** Duplicate: the clone receives the source's sealed credentials for the servers it declares, copied as they are. */
export async function copyCredentials(
  tx: Tx,
  fromAgentId: string,
  toAgentId: string,
  servers: string[],
): Promise<Map<string, string[]>> {
  const rows = await tx.agentMcpCredential.findMany({
    where: { agentId: fromAgentId, serverName: { in: servers } },
    select: { serverName: true, sealed: true, headerKeys: true },
  });
  if (rows.length > 0)
    await tx.agentMcpCredential.createMany({ data: rows.map((r) => ({ ...r, agentId: toAgentId })) });
  return new Map(rows.map((r) => [r.serverName, r.headerKeys]));
}

/** Header names stored for the agent's servers, by server. */
export async function storedHeaderKeys(db: Tx | Database, agentId: string): Promise<Map<string, string[]>> {
  const rows = await db.agentMcpCredential.findMany({
    where: { agentId },
    select: { serverName: true, headerKeys: true },
  });
  return new Map(rows.map((row) => [row.serverName, row.headerKeys]));
}

/** Rotation merges by name; header names are case-insensitive, so `x-api-key` replaces `X-Api-Key`. */
export function mergeHeaders(stored: Headers, incoming: Headers): Headers {
  const replaced = new Set(Object.keys(incoming).map((k) => k.toLowerCase()));
  const kept = Object.entries(stored).filter(([name]) => !replaced.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...incoming };
}

/**
 * The header values to send to one MCP server of an agent, opened from the sealed store on every call so that a
 * rotation takes effect at once (also for running sessions). `{}` when the server has no credential. Values may be
 * vault references (`{ vaultKey, prefix? }`), which the caller resolves against the session's vaults. Never log the
 * result. Callers have already scoped `agentId` to the session's project.
 */
export async function loadMcpHeaders(ctx: AppContext, agentId: string, serverName: string): Promise<Headers> {
  const row = await ctx.db.prisma.agentMcpCredential.findUnique({
    where: { agentId_serverName: { agentId, serverName } },
    select: { sealed: true },
  });
  return row ? ctx.secrets.open<Headers>(row.sealed) : {};
}
