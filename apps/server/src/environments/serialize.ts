import type { Environment } from "@agent-platform/contract";
import type { Environment as EnvironmentRow } from "@agent-platform/db";

export function toEnvironment(row: EnvironmentRow, defaultEnvironmentId: string | null): Environment {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    variables: (row.variables ?? {}) as Record<string, string>,
    isDefault: row.id === defaultEnvironmentId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}
