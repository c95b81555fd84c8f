import { type Environment, type Networking, resolveResources, type SecretReference } from "@agent-platform/contract";
import type { Environment as EnvironmentRow } from "@agent-platform/db";

export function toEnvironment(row: EnvironmentRow, defaultEnvironmentId: string | null): Environment {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    variables: (row.variables ?? {}) as Record<string, string>,
    networking: (row.networking ?? { type: "none" }) as Networking,
    packages: {
      npm: (row.packages as { npm?: string[] } | null)?.npm ?? [],
      pip: (row.packages as { pip?: string[] } | null)?.pip ?? [],
    },
    secrets: (row.secrets ?? {}) as Record<string, SecretReference>,
    resources: resolveResources(row.resources as Parameters<typeof resolveResources>[0]),
    isDefault: row.id === defaultEnvironmentId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}
