import type { PutEgressPolicy, WorkspaceEgressPolicy } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { invalidRequest } from "../http/error-envelope.js";
import { type EgressPolicy, parseDomainPattern } from "./egress-policy.js";

function policyOf(stored: unknown): EgressPolicy {
  const value = (stored ?? {}) as EgressPolicy;
  return {
    ...(Array.isArray(value.allowedDomains) ? { allowedDomains: value.allowedDomains } : {}),
    ...(Array.isArray(value.deniedDomains) ? { deniedDomains: value.deniedDomains } : {}),
  };
}

/** The workspace's egress policy; `{}` (every host allowed) when none was ever set. Read on every outbound call. */
export async function loadWorkspaceEgressPolicy(prisma: Database, workspaceId: string): Promise<EgressPolicy> {
  const row = await prisma.workspacePolicy.findUnique({ where: { workspaceId }, select: { egressPolicy: true } });
  return policyOf(row?.egressPolicy);
}

export async function getWorkspaceEgressPolicy(prisma: Database, workspaceId: string): Promise<WorkspaceEgressPolicy> {
  const row = await prisma.workspacePolicy.findUnique({ where: { workspaceId } });
  return { workspaceId, ...policyOf(row?.egressPolicy), updatedAt: row?.updatedAt.toISOString() ?? null };
}

/** Replaces the whole policy. Every pattern must parse as a host pattern (the contract checks only its form). */
export async function putWorkspaceEgressPolicy(
  prisma: Database,
  workspaceId: string,
  body: PutEgressPolicy,
): Promise<WorkspaceEgressPolicy> {
  const issues = (["allowedDomains", "deniedDomains"] as const).flatMap((field) =>
    (body[field] ?? []).flatMap((pattern, i) =>
      parseDomainPattern(pattern)
        ? []
        : [{ path: `body.${field}.${i}`, message: `"${pattern}" is not a host pattern` }],
    ),
  );
  if (issues.length) throw invalidRequest(issues);
  const egressPolicy = { ...policyOf(body) };
  const row = await prisma.workspacePolicy.upsert({
    where: { workspaceId },
    create: { workspaceId, egressPolicy },
    update: { egressPolicy },
  });
  return { workspaceId, ...policyOf(row.egressPolicy), updatedAt: row.updatedAt.toISOString() };
}
