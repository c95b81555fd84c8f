import { type AgentConfig, AgentConfigSchema } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { LruCache } from "../lib/lru-cache.js";

/** The client or a transaction: anything that can read `agent_versions`. */
export type VersionReader = Pick<Database, "agentVersion">;

/** One immutable version: its configuration (frozen, shared by every reader) and when it was published. */
export interface AgentSnapshot {
  agentId: string;
  version: number;
  config: AgentConfig;
  publishedAt: Date;
}

// Versions never change once written and agent ids are never reused, so a process-wide cache is always right: no
// invalidation, only eviction (bounded by count and by the size of the configurations).
const snapshots = new LruCache<string, AgentSnapshot>({
  maxEntries: 2000,
  maxWeight: 32 * 1024 * 1024,
  weigh: (snapshot) => JSON.stringify(snapshot.config).length,
});
const keyOf = (agentId: string, version: number) => `${agentId}@${version}`;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Caches a version; `configLength` is the length of its configuration's JSON text where the caller has that text. */
export function rememberSnapshot(snapshot: AgentSnapshot, configLength?: number): AgentSnapshot {
  const frozen = deepFreeze(snapshot);
  snapshots.set(keyOf(snapshot.agentId, snapshot.version), frozen, configLength);
  return frozen;
}

/** A version row read by the caller, as a (cached) snapshot. */
export function snapshotOfRow(row: { agentId: string; version: number; config: unknown; createdAt: Date }) {
  return (
    snapshots.get(keyOf(row.agentId, row.version)) ??
    rememberSnapshot({
      agentId: row.agentId,
      version: row.version,
      config: row.config as AgentConfig,
      publishedAt: row.createdAt,
    })
  );
}

/** A version read as JSON text alongside its head: the text is parsed only when the snapshot is not cached yet. */
export function snapshotOfText(agentId: string, version: number, config: string, publishedAt: Date): AgentSnapshot {
  return (
    snapshots.get(keyOf(agentId, version)) ??
    rememberSnapshot({ agentId, version, config: JSON.parse(config) as AgentConfig, publishedAt }, config.length)
  );
}

// What ts-rest's response validation made of a stored configuration (fields and nested keys in the contract's order,
// undeclared keys dropped), computed once per cached snapshot so that reads can skip it.
const readable = new WeakMap<AgentSnapshot, AgentConfig>();

/** The snapshot's configuration as the contract shapes it (frozen, shared). */
export function readableConfig(snapshot: AgentSnapshot): AgentConfig {
  let config = readable.get(snapshot);
  if (config === undefined) {
    config = deepFreeze(AgentConfigSchema.parse(snapshot.config));
    readable.set(snapshot, config);
  }
  return config;
}

/**
 * The snapshots of the given versions, from the cache or in one query for the missing ones. Callers scope the agent
 * ids to a project before asking. Versions that do not exist are absent from the result.
 */
export async function loadSnapshots(
  prisma: VersionReader,
  wanted: readonly { agentId: string; version: number }[],
): Promise<Map<string, AgentSnapshot>> {
  const found = new Map<string, AgentSnapshot>();
  const missing: { agentId: string; version: number }[] = [];
  for (const { agentId, version } of wanted) {
    const cached = snapshots.get(keyOf(agentId, version));
    if (cached) found.set(keyOf(agentId, version), cached);
    else missing.push({ agentId, version });
  }
  if (missing.length > 0) {
    const rows = await prisma.agentVersion.findMany({ where: { OR: missing } });
    for (const row of rows) found.set(keyOf(row.agentId, row.version), snapshotOfRow(row));
  }
  return found;
}

export async function loadSnapshot(
  prisma: VersionReader,
  agentId: string,
  version: number,
): Promise<AgentSnapshot | undefined> {
  return (await loadSnapshots(prisma, [{ agentId, version }])).get(keyOf(agentId, version));
}
