import {
  type Networking,
  type Packages,
  type ResolvedResources,
  resolveResources,
  type SecretReference,
} from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";

/** What code execution needs of a session's environment. */
export interface ExecutionEnvironment {
  variables: Record<string, string>;
  networking: Networking;
  packages: { npm: string[]; pip: string[] };
  secrets: Record<string, SecretReference>;
  resources: ResolvedResources;
}

const DEFAULTS: ExecutionEnvironment = {
  variables: {},
  networking: { type: "none" },
  packages: { npm: [], pip: [] },
  secrets: {},
  resources: resolveResources(undefined),
};

/**
 * The execution configuration of an environment as it is now (an edit applies to the next call of every session that
 * runs with it); the defaults when the session has none or it no longer exists.
 */
export async function loadExecutionEnvironment(
  prisma: Database,
  projectId: string,
  environmentId: string | null,
): Promise<ExecutionEnvironment> {
  if (!environmentId) return DEFAULTS;
  const row = await prisma.environment.findFirst({
    where: { id: environmentId, projectId },
    select: { variables: true, networking: true, packages: true, secrets: true, resources: true },
  });
  if (!row) return DEFAULTS;
  const packages = (row.packages ?? {}) as Packages;
  return {
    variables: (row.variables ?? {}) as Record<string, string>,
    networking: (row.networking ?? { type: "none" }) as Networking,
    packages: { npm: packages.npm ?? [], pip: packages.pip ?? [] },
    secrets: (row.secrets ?? {}) as Record<string, SecretReference>,
    resources: resolveResources(row.resources as Parameters<typeof resolveResources>[0]),
  };
}
