import type { SkillManifest } from "@agent-platform/contract";
import type { Database, Prisma } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { LruCache } from "../lib/lru-cache.js";
import { comparePaths, type StoredSkillFile } from "./files.js";

/** The Prisma client or a transaction of it. */
export type DbClient = Database | Prisma.TransactionClient;

/** One published version with its files. Immutable: cached in-process without expiry, frozen against edits. */
export interface SkillVersionContent {
  readonly skillId: string;
  readonly workspaceId: string;
  readonly version: number;
  readonly manifest: Readonly<SkillManifest>;
  /** In path order. */
  readonly files: readonly Readonly<StoredSkillFile>[];
  readonly totalBytes: number;
  readonly createdAt: Date;
}

const CACHE_MAX_ENTRIES = 1000;
const CACHE_MAX_BYTES = 64 * 1024 * 1024;
const FILE_OVERHEAD_BYTES = 256;

/**
 * Versions never change once written, so `skillId@version` can never go stale: no invalidation, only eviction. Misses
 * are not cached (a version that does not exist yet may be published later).
 */
const versionCache = new LruCache<string, SkillVersionContent>({
  maxEntries: CACHE_MAX_ENTRIES,
  maxWeight: CACHE_MAX_BYTES,
  weigh: (v) => v.totalBytes * 2 + v.files.length * FILE_OVERHEAD_BYTES,
});
const loading = new Map<string, Promise<SkillVersionContent | null>>();

const INT4_MAX = 2_147_483_647;
const isStorableVersion = (version: number) => Number.isInteger(version) && version >= 1 && version <= INT4_MAX;
const cacheKey = (skillId: string, version: number) => `${skillId}@${version}`;

export function manifestOf(value: Prisma.JsonValue): SkillManifest {
  const m = (value ?? {}) as Record<string, unknown>;
  return { name: String(m.name ?? ""), description: String(m.description ?? ""), entry: String(m.entry ?? "") };
}

function freeze(content: SkillVersionContent): SkillVersionContent {
  for (const file of content.files) Object.freeze(file);
  Object.freeze(content.files);
  Object.freeze(content.manifest);
  return Object.freeze(content);
}

/** Puts a version just written into the cache (its rows are committed and will never change). */
export function rememberVersion(content: SkillVersionContent): SkillVersionContent {
  const frozen = freeze(content);
  versionCache.set(cacheKey(content.skillId, content.version), frozen);
  return frozen;
}

async function loadVersion(prisma: DbClient, skillId: string, version: number): Promise<SkillVersionContent | null> {
  const row = await prisma.skillVersion.findUnique({
    where: { skillId_version: { skillId, version } },
    include: { files: true, skill: { select: { workspaceId: true } } },
  });
  if (!row) return null;
  return {
    skillId: row.skillId,
    workspaceId: row.skill.workspaceId,
    version: row.version,
    manifest: manifestOf(row.manifest),
    files: row.files
      .map((f) => ({ path: f.path, content: f.content, contentType: f.contentType, bytes: f.bytes, sha256: f.sha256 }))
      .sort((a, b) => comparePaths(a.path, b.path)),
    totalBytes: row.totalBytes,
    createdAt: row.createdAt,
  };
}

/**
 * One version of a skill with its files, from the in-process cache or the database; `null` when it does not exist.
 * Not scoped: callers compare `workspaceId` with the caller's workspace.
 */
export async function readSkillVersion(
  prisma: DbClient,
  skillId: string,
  version: number,
): Promise<SkillVersionContent | null> {
  if (!isStorableVersion(version)) return null;
  const key = cacheKey(skillId, version);
  const cached = versionCache.get(key);
  if (cached) return cached;
  const pending = loading.get(key);
  if (pending) return pending;
  const load = loadVersion(prisma, skillId, version)
    .then((content) => (content ? rememberVersion(content) : null))
    .finally(() => loading.delete(key));
  loading.set(key, load);
  return load;
}

export interface SkillVersionRef {
  skillId: string;
  version: number;
}

export interface FoundSkillVersion extends SkillVersionRef {
  /** The skill's current name. */
  name: string;
  /** The skill is archived (its versions still exist and can be read). */
  archived: boolean;
}

/**
 * Which of `refs` exist in the workspace: one query. Returns one entry per distinct existing `{ skillId, version }`
 * (skill in `workspaceId` and version published), with the skill's archived flag; refs absent from the result are
 * missing (unknown skill, other workspace, or unpublished version). A reference is usable for a new pin when it is
 * returned with `archived: false`.
 */
export async function findSkillVersions(
  prisma: DbClient,
  workspaceId: string,
  refs: readonly SkillVersionRef[],
): Promise<FoundSkillVersion[]> {
  const wanted = refs.filter((r) => typeof r.skillId === "string" && isStorableVersion(r.version));
  if (wanted.length === 0) return [];
  const skillIds = wanted.map((r) => r.skillId);
  const versions = wanted.map((r) => r.version);
  return prisma.$queryRaw<FoundSkillVersion[]>`
    SELECT DISTINCT v."skillId", v."version", s."name", (s."archivedAt" IS NOT NULL) AS "archived"
    FROM unnest(${skillIds}::text[], ${versions}::int[]) AS r("skillId", "version")
    JOIN "skill_versions" v ON v."skillId" = r."skillId" AND v."version" = r."version"
    JOIN "skills" s ON s."id" = v."skillId"
    WHERE s."workspaceId" = ${workspaceId}
    ORDER BY v."skillId", v."version"`;
}

export interface LoadedSkillFiles {
  skillId: string;
  version: number;
  /** Manifest of that version. */
  manifest: Readonly<SkillManifest>;
  /** In path order; frozen (shared by every reader of the in-process cache). */
  files: readonly Readonly<StoredSkillFile>[];
}

/**
 * The files of a pinned skill version, for the agent runtime. Cached in-process (versions are immutable). Works for
 * archived skills. Throws 404 `skill.not_found` (no such skill in the workspace) or `skill.version_not_found`.
 */
export async function loadSkillFiles(
  prisma: DbClient,
  workspaceId: string,
  skillId: string,
  version: number,
): Promise<LoadedSkillFiles> {
  const content = await readSkillVersion(prisma, skillId, version);
  if (content && content.workspaceId === workspaceId) {
    return { skillId, version, manifest: content.manifest, files: content.files };
  }
  const skill = content
    ? null
    : await prisma.skill.findFirst({ where: { id: skillId, workspaceId }, select: { id: true } });
  if (!skill) throw new AppError("skill.not_found", `Skill ${skillId} was not found`);
  throw new AppError("skill.version_not_found", `Skill ${skillId} has no version ${version}`);
}
