import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import { checkEgress, loadWorkspaceEgressPolicy, mergeEgressPolicies } from "../../governance/index.js";
import { startEgressProxy } from "../../lib/outbound/index.js";
import type { SessionRuntimeInfo } from "../tools/types.js";
import { packageHosts } from "./package-layers.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/** A proxy on a Unix socket that a sandbox reaches the network through (bound into it), and how to close it. */
export interface EgressBridge {
  path: string;
  close(): Promise<void>;
}

/**
 * The proxy of one call with `limited` networking: the environment's hosts, within the workspace and agent egress
 * policies; every connection through `ctx.outbound` (the address policy).
 */
export async function callEgressBridge(
  ctx: Pick<AppContext, "db" | "outbound">,
  settings: SandboxSettings,
  input: { session: SessionRuntimeInfo; agent: AgentConfig; allowedHosts: string[]; dir: string },
): Promise<EgressBridge> {
  const workspacePolicy = await loadWorkspaceEgressPolicy(ctx.db.prisma, input.session.workspaceId);
  const policy = mergeEgressPolicies(workspacePolicy, input.agent.egressPolicy);
  const hosts = mergeEgressPolicies(null, { allowedDomains: input.allowedHosts });
  const path = join(input.dir, `egress-${randomUUID()}.sock`);
  const proxy = await startEgressProxy({
    outbound: ctx.outbound,
    judge: (url) => {
      if (!checkEgress(hosts, url).allowed) return `${url.host} is not in the environment's networking.allowedHosts`;
      const decision = checkEgress(policy, url);
      return decision.allowed ? null : decision.reason;
    },
    listen: { path, uid: settings.uid, gid: settings.gid },
  });
  return { path, close: () => proxy.close() };
}

/** The proxy of a package layer's build: the package hosts only (the npm registry, the pip index). */
export async function packageEgressBridge(
  ctx: Pick<AppContext, "outbound">,
  settings: SandboxSettings,
  target: string,
): Promise<EgressBridge> {
  const hosts = packageHosts(settings);
  const path = join(target, "..", `${randomUUID()}.sock`);
  const proxy = await startEgressProxy({
    outbound: ctx.outbound,
    judge: (url) =>
      hosts.includes(url.host) || hosts.includes(url.hostname) ? null : `${url.host} is not a package host`,
    listen: { path, uid: settings.uid, gid: settings.gid },
  });
  return { path, close: () => proxy.close() };
}
