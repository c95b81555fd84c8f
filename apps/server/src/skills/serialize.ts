import type { Skill, SkillContent, SkillSummary, SkillVersionSummary } from "@agent-platform/contract";
import type { Skill as SkillRow, SkillVersion as SkillVersionRow } from "@agent-platform/db";
import type { SkillVersionContent } from "./version-store.js";
import { manifestOf } from "./version-store.js";

export function toSkillSummary(row: SkillRow): SkillSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    currentVersion: row.currentVersion,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}

/** The skill record with the manifest and file references (no text) of one version. */
export function toSkill(row: SkillRow, content: SkillVersionContent): Skill {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    currentVersion: row.currentVersion,
    version: content.version,
    manifest: { ...content.manifest },
    files: content.files.map((f) => ({ path: f.path, contentType: f.contentType, bytes: f.bytes, sha256: f.sha256 })),
    totalBytes: content.totalBytes,
    versionCreatedAt: content.createdAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}

export function toSkillVersionSummary(row: SkillVersionRow): SkillVersionSummary {
  return {
    skillId: row.skillId,
    version: row.version,
    manifest: manifestOf(row.manifest),
    fileCount: row.fileCount,
    totalBytes: row.totalBytes,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The content view: `files` has the shape publishing accepts, plus `contentType` and `bytes`. */
export function toSkillContent(row: SkillRow, content: SkillVersionContent): SkillContent {
  return {
    skillId: row.id,
    name: row.name,
    version: content.version,
    currentVersion: row.currentVersion,
    manifest: { ...content.manifest },
    files: content.files.map((f) => ({ path: f.path, content: f.content, contentType: f.contentType, bytes: f.bytes })),
  };
}
