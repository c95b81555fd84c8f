import type { ApiKey, Project } from "@agent-platform/contract";
import type { ApiKey as ApiKeyRow, Project as ProjectRow } from "@agent-platform/db";

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    defaultEnvironmentId: row.defaultEnvironmentId ?? "",
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    projectId: row.projectId,
    role: row.role as ApiKey["role"],
    start: row.start,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
