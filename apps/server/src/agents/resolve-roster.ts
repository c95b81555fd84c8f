import type { RosterEntry, RosterEntryInput } from "@agent-platform/contract";
import type pg from "pg";
import { AppError } from "../http/app-error.js";

interface TargetRow {
  ord: string;
  found: boolean;
  archived: boolean;
  resolvedVersion: number | null;
  isCoordinator: boolean | null;
}

// One query for the whole roster: each entry's target in the project, its archive flag, and the version the entry
// pins (the current one when omitted) with whether that version is itself a coordinator.
const ROSTER_TARGETS = `
  SELECT r.ord, a.id IS NOT NULL AS found, a."archivedAt" IS NOT NULL AS archived,
         v.version AS "resolvedVersion", (v.config ? 'multiagent') AS "isCoordinator"
  FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS r("agentId", version, ord)
  LEFT JOIN agents a ON a.id = r."agentId" AND a."projectId" = $1
  LEFT JOIN agent_versions v ON v."agentId" = a.id AND v.version = COALESCE(r.version, a."currentVersion")
  ORDER BY r.ord`;

function invalidRoster(entry: RosterEntryInput, problem: string): AppError {
  return new AppError("agent.invalid_roster", `Roster entry "${entry.role}": ${problem}`, {
    role: entry.role,
    agentId: entry.agentId,
  });
}

/**
 * Multi-agent rule 3: each target must exist in the project, be active, not be the coordinator itself and not be a
 * coordinator (delegation is one level deep). A pinned version must exist; an omitted one resolves to the current
 * version, whose number is stored.
 */
export async function resolveRoster(
  pool: pg.Pool,
  scope: { projectId: string; agentId?: string },
  roster: RosterEntryInput[],
): Promise<RosterEntry[]> {
  for (const entry of roster) {
    if (entry.agentId === scope.agentId) throw invalidRoster(entry, "an agent cannot delegate to itself");
  }
  const { rows } = await pool.query<TargetRow>(ROSTER_TARGETS, [
    scope.projectId,
    roster.map((e) => e.agentId),
    roster.map((e) => e.version ?? null),
  ]);
  return roster.map((entry, i) => {
    const row = rows[i]!;
    if (!row.found) throw invalidRoster(entry, `agent ${entry.agentId} was not found in this project`);
    if (row.archived) throw invalidRoster(entry, `agent ${entry.agentId} is archived`);
    if (row.resolvedVersion === null) {
      throw invalidRoster(entry, `agent ${entry.agentId} has no version ${entry.version}`);
    }
    if (row.isCoordinator) {
      throw invalidRoster(
        entry,
        `agent ${entry.agentId} (version ${row.resolvedVersion}) is itself a coordinator; delegation is one level deep`,
      );
    }
    return { ...entry, version: row.resolvedVersion };
  });
}
