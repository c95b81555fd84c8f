import type { Agent } from "@agent-platform/sdk";

/** The fields of a record that are not its configuration (they change with every version or never). */
const IDENTITY = new Set(["id", "projectId", "version", "createdAt", "updatedAt", "archivedAt"]);

export function modelLabel(model: Agent["model"]): string {
  return typeof model === "string" ? model : model.id;
}

/** An agent version's configuration as JSON with sorted keys, so that two versions diff line by line. */
export function configText(agent: Agent): string {
  const config = Object.fromEntries(
    Object.entries(agent).filter(([key, value]) => !IDENTITY.has(key) && !(key === "system" && value === "")),
  );
  return JSON.stringify(sortKeys(config), null, 2);
}

/** Whether two configuration values are the same, whatever the order of their keys. */
export function sameConfig(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, inner]) => [key, sortKeys(inner)]),
    );
  }
  return value;
}
