import type {
  CreateSkill,
  CursorPage,
  PublishSkill,
  Skill,
  SkillContent,
  SkillListQuery,
  SkillSummary,
  SkillVersionSummary,
} from "@agent-platform/contract";
import type { Database, Prisma, Skill as SkillRow } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import { archivedWhere, nameContains } from "../http/list-filters.js";
import { decodeCursor, decodeNumberCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { assertExpectedVersion, bumpUnderLock, type VersionLockRefusals } from "../lib/optimistic-lock.js";
import { prepareSkillFiles, type StoredSkillFile, totalBytesOf } from "./files.js";
import { resolveManifest } from "./manifest.js";
import { toSkill, toSkillContent, toSkillSummary, toSkillVersionSummary } from "./serialize.js";
import { type DbClient, readSkillVersion, rememberVersion, type SkillVersionContent } from "./version-store.js";

function skillNotFound(id: string): AppError {
  return new AppError("skill.not_found", `Skill ${id} was not found`);
}

function versionNotFound(id: string, version: number): AppError {
  return new AppError("skill.version_not_found", `Skill ${id} has no version ${version}`);
}

function versionConflict(id: string, expected: number, current: number): AppError {
  return new AppError(
    "skill.version_conflict",
    `Skill ${id} is at version ${current}, not ${expected}: another publish happened in between. Read the skill and ` +
      `publish again with version ${current}.`,
    { expectedVersion: expected, currentVersion: current },
  );
}

const refusals = (id: string): VersionLockRefusals => ({
  notFound: () => skillNotFound(id),
  archived: () => archived(id),
  conflict: (expected, current) => versionConflict(id, expected, current),
});

function archived(id: string): AppError {
  return new AppError("skill.archived", `Skill ${id} is archived: no new version can be published`);
}

async function findSkill(prisma: DbClient, auth: AuthContext, id: string): Promise<SkillRow> {
  const row = await prisma.skill.findFirst({ where: { id, workspaceId: auth.workspaceId } });
  if (!row) throw skillNotFound(id);
  return row;
}

/** The skill and one of its versions (the current one by default). */
async function findSkillVersion(
  prisma: DbClient,
  auth: AuthContext,
  id: string,
  version?: number,
): Promise<{ row: SkillRow; content: SkillVersionContent }> {
  const row = await findSkill(prisma, auth, id);
  const wanted = version ?? row.currentVersion;
  const content = wanted <= row.currentVersion ? await readSkillVersion(prisma, id, wanted) : null;
  if (!content) throw versionNotFound(id, wanted);
  return { row, content };
}

function fileRows(skillId: string, version: number, files: StoredSkillFile[]): Prisma.SkillFileCreateManyInput[] {
  return files.map((f) => ({ skillId, version, ...f }));
}

/** Creates a skill and publishes version 1, in one transaction. */
export async function createSkill(prisma: Database, auth: AuthContext, body: CreateSkill): Promise<Skill> {
  const manifest = resolveManifest({ files: body.files, manifest: body.manifest });
  const files = prepareSkillFiles(body.files);
  const totalBytes = totalBytesOf(files);
  const id = newId("skill");
  const [row, version] = await prisma.$transaction([
    prisma.skill.create({
      data: {
        id,
        workspaceId: auth.workspaceId,
        name: manifest.name,
        description: manifest.description,
        currentVersion: 1,
      },
    }),
    prisma.skillVersion.create({
      data: { skillId: id, version: 1, manifest: { ...manifest }, fileCount: files.length, totalBytes },
    }),
    prisma.skillFile.createMany({ data: fileRows(id, 1, files) }),
  ]);
  const content = rememberVersion({
    skillId: id,
    workspaceId: auth.workspaceId,
    version: 1,
    manifest,
    files,
    totalBytes,
    createdAt: version.createdAt,
  });
  return toSkill(row, content);
}

/**
 * Publishes `files` as version `expected + 1`. The conditional update of `currentVersion` (optimistic lock) and the
 * inserts share one transaction: when a concurrent publish (or an archive) got there first, nothing is written and the
 * answer is 409 `skill.version_conflict` (or `skill.archived`, or 404 when the skill is gone).
 */
export async function publishSkill(
  prisma: Database,
  auth: AuthContext,
  id: string,
  body: PublishSkill,
): Promise<Skill> {
  const current = await findSkill(prisma, auth, id);
  const refuse = refusals(id);
  assertExpectedVersion(current, body.version, refuse);
  const previous = await readSkillVersion(prisma, id, body.version);
  const manifest = resolveManifest({ files: body.files, manifest: body.manifest, previous: previous?.manifest });
  const files = prepareSkillFiles(body.files);
  const totalBytes = totalBytesOf(files);
  const next = body.version + 1;

  const { row, version } = await prisma.$transaction(async (tx) => {
    const updated = await bumpUnderLock(
      async () =>
        (
          await tx.skill.updateManyAndReturn({
            where: { id, workspaceId: auth.workspaceId, currentVersion: body.version, archivedAt: null },
            data: {
              currentVersion: next,
              name: manifest.name,
              description: manifest.description,
              updatedAt: new Date(),
            },
          })
        )[0],
      () => tx.skill.findFirst({ where: { id, workspaceId: auth.workspaceId } }),
      body.version,
      refuse,
    );
    const created = await tx.skillVersion.create({
      data: { skillId: id, version: next, manifest: { ...manifest }, fileCount: files.length, totalBytes },
    });
    await tx.skillFile.createMany({ data: fileRows(id, next, files) });
    return { row: updated, version: created };
  });

  const content = rememberVersion({
    skillId: id,
    workspaceId: auth.workspaceId,
    version: next,
    manifest,
    files,
    totalBytes,
    createdAt: version.createdAt,
  });
  return toSkill(row, content);
}

export async function listSkills(
  prisma: Database,
  auth: AuthContext,
  query: SkillListQuery,
): Promise<CursorPage<SkillSummary>> {
  const filters = { status: query.status, name: query.name };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.skill.findMany({
    where: {
      workspaceId: auth.workspaceId,
      ...archivedWhere(query.status),
      ...nameContains(query.name),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.id, toSkillSummary);
}

export async function getSkill(prisma: Database, auth: AuthContext, id: string, version?: number): Promise<Skill> {
  const { row, content } = await findSkillVersion(prisma, auth, id, version);
  return toSkill(row, content);
}

export async function listSkillVersions(
  prisma: Database,
  auth: AuthContext,
  id: string,
  limit: number,
  cursor?: string,
): Promise<CursorPage<SkillVersionSummary>> {
  await findSkill(prisma, auth, id);
  const filters = { skillId: id };
  const after = decodeNumberCursor(cursor, filters);
  if (after !== undefined && typeof after !== "number") {
    throw new AppError("request.invalid", "The cursor is not one this API issued", {
      issues: [{ path: "query.cursor", message: "The cursor is not one this API issued" }],
    });
  }
  const rows = await prisma.skillVersion.findMany({
    where: { skillId: id, ...(after !== undefined ? { version: { lt: after } } : {}) },
    orderBy: { version: "desc" },
    take: limit + 1,
  });
  return pageOf(rows, limit, filters, (r) => r.version, toSkillVersionSummary);
}

export async function getSkillContent(
  prisma: Database,
  auth: AuthContext,
  id: string,
  version?: number,
): Promise<SkillContent> {
  const { row, content } = await findSkillVersion(prisma, auth, id, version);
  return toSkillContent(row, content);
}

/** The version and the file that a signed link will serve; 404 when either is missing. */
export async function findSkillFile(
  prisma: Database,
  auth: AuthContext,
  id: string,
  path: string,
  version?: number,
): Promise<{ version: number; path: string }> {
  const { content } = await findSkillVersion(prisma, auth, id, version);
  const file = content.files.find((f) => f.path === path);
  if (!file) {
    throw new AppError("skill.file_not_found", `Version ${content.version} of skill ${id} has no file \`${path}\``);
  }
  return { version: content.version, path: file.path };
}

/** Archives the skill (idempotent: an archived skill is returned unchanged). */
export async function archiveSkill(prisma: Database, auth: AuthContext, id: string): Promise<Skill> {
  await prisma.skill.updateMany({
    where: { id, workspaceId: auth.workspaceId, archivedAt: null },
    data: { archivedAt: new Date() },
  });
  const { row, content } = await findSkillVersion(prisma, auth, id);
  return toSkill(row, content);
}
