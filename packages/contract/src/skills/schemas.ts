import { z } from "zod";
import { idOf, Name, NullableTimestamp, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { PageQuerySchema } from "../common/pagination.js";
import { isWellFormedText, skillPathProblem, utf8ByteLength } from "./paths.js";

/** The entry file a manifest can be derived from (YAML frontmatter `name` and `description`). */
export const SKILL_ENTRY_FILE = "SKILL.md";

/** Lifetime of the signed file URLs returned by `GET /v1/skills/:id/files/:path`. */
export const SKILL_FILE_URL_TTL_SECONDS = 900;

const MB = 1024 * 1024;
const fmtBytes = (n: number) => (n % MB === 0 ? `${n / MB} MiB` : `${n} bytes`);

export const SkillPathSchema = z
  .string()
  .min(1)
  .max(LIMITS.skillPathLength)
  .superRefine((path, ctx) => {
    if (path.length === 0 || path.length > LIMITS.skillPathLength) return;
    const problem = skillPathProblem(path);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  })
  .describe(
    "Path inside the skill: relative, `/`-separated, normalized (`scripts/run.py`; no leading `/`, no `\\`, " +
      `no empty, \`.\` or \`..\` segment), at most ${LIMITS.skillPathLength} characters`,
  );

const SkillDescriptionText = z.string().trim().min(1).max(2000);

export const SkillManifestInputSchema = z
  .object({
    name: Name.describe("Skill name, 1 to 200 characters"),
    description: SkillDescriptionText.describe("What the skill does and when to use it, 1 to 2000 characters"),
    entry: SkillPathSchema.describe("Path of the entry file; must be one of `files`"),
  })
  .strict()
  .describe("Skill manifest");

export const SkillManifestSchema = z
  .object({ name: z.string(), description: z.string(), entry: z.string() })
  .describe("Skill manifest: name, description and the path of the entry file");

const SkillContentText = z
  .string()
  .max(LIMITS.skillFileBytes)
  .superRefine((content, ctx) => {
    if (content.length <= LIMITS.skillFileBytes && utf8ByteLength(content) > LIMITS.skillFileBytes) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `must be at most ${fmtBytes(LIMITS.skillFileBytes)} of UTF-8`,
      });
    }
    if (content.includes("\u0000")) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be text (no NUL character)" });
    }
    if (!isWellFormedText(content)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be valid Unicode text (no unpaired surrogate)" });
    }
  })
  .describe(`File text, at most ${fmtBytes(LIMITS.skillFileBytes)} of UTF-8`);

export const SkillFileInputSchema = z
  .object({
    path: SkillPathSchema,
    content: SkillContentText,
    contentType: z
      .string()
      .max(255)
      .optional()
      .describe("Read-only, ignored: accepted so that the `files` of a content view can be published back as is"),
    bytes: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Read-only, ignored: accepted so that the `files` of a content view can be published back as is"),
  })
  .strict()
  .describe("A file of the skill");

export const SkillFilesInputSchema = z
  .array(SkillFileInputSchema)
  .min(1)
  .max(LIMITS.skillFiles)
  .superRefine((files, ctx) => {
    const seen = new Map<string, number>();
    const folders = new Set<string>();
    let total = 0;
    files.forEach((file, index) => {
      if (typeof file?.path !== "string" || typeof file.content !== "string") return;
      total += utf8ByteLength(file.content);
      const first = seen.get(file.path);
      if (first !== undefined) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [index, "path"],
          message: `duplicate path \`${file.path}\` (also files.${first}.path)`,
        });
      } else seen.set(file.path, index);
      const segments = file.path.split("/");
      for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join("/"));
    });
    files.forEach((file, index) => {
      if (typeof file?.path === "string" && folders.has(file.path)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [index, "path"],
          message: `\`${file.path}\` is both a file and a folder of other files`,
        });
      }
    });
    if (total > LIMITS.skillTotalBytes) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `the files total ${total} bytes; at most ${fmtBytes(LIMITS.skillTotalBytes)} of UTF-8 per version`,
      });
    }
  })
  .describe(
    `The complete file set: 1 to ${LIMITS.skillFiles} files with unique paths, each at most ` +
      `${fmtBytes(LIMITS.skillFileBytes)}, ${fmtBytes(LIMITS.skillTotalBytes)} in total (UTF-8 bytes)`,
  );

export const CreateSkillSchema = z
  .object({
    manifest: SkillManifestInputSchema.optional().describe(
      `Omit it to derive the manifest from a \`${SKILL_ENTRY_FILE}\` with YAML frontmatter \`name\` and ` +
        "`description`, at the root or at the root of one top-level folder",
    ),
    files: SkillFilesInputSchema,
  })
  .strict()
  .describe("Create a skill: publishes version 1");

export const PublishSkillSchema = z
  .object({
    version: z
      .number()
      .int()
      .min(1)
      .describe("The current version you expect (not the new number); otherwise 409 `skill.version_conflict`"),
    files: SkillFilesInputSchema,
    manifest: SkillManifestInputSchema.optional().describe(
      "Omit it to keep the previous manifest (re-read from its entry file when that is a `SKILL.md`), or to " +
        "derive it from a `SKILL.md` when the previous entry is no longer among the files",
    ),
  })
  .strict()
  .describe("Publish a new version: the complete file set and the expected current version");

export const SkillFileRefSchema = z
  .object({
    path: z.string(),
    contentType: z.string().describe("Media type derived from the file extension"),
    bytes: z.number().int().describe("UTF-8 byte length of the content"),
    sha256: z.string().describe("Hex SHA-256 of the UTF-8 content"),
  })
  .describe("A file of a skill version, without its text");

export const SkillSchema = z
  .object({
    id: idOf("skill"),
    name: z.string().describe("Name of the current version's manifest"),
    description: z.string().describe("Description of the current version's manifest"),
    currentVersion: z.number().int(),
    version: z.number().int().describe("The version shown: the current one unless `?version` asked for another"),
    manifest: SkillManifestSchema,
    files: z.array(SkillFileRefSchema).describe("Files of the version shown, in path order"),
    totalBytes: z.number().int(),
    versionCreatedAt: Timestamp.describe("When the version shown was published"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: NullableTimestamp,
  })
  .describe("Skill with the manifest and file references of one version (no file text)");

export const SkillSummarySchema = z
  .object({
    id: idOf("skill"),
    name: z.string(),
    description: z.string(),
    currentVersion: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: NullableTimestamp,
  })
  .describe("Skill in a list");

export const SkillVersionSummarySchema = z
  .object({
    skillId: idOf("skill"),
    version: z.number().int(),
    manifest: SkillManifestSchema,
    fileCount: z.number().int(),
    totalBytes: z.number().int(),
    createdAt: Timestamp,
  })
  .describe("A published version of a skill");

export const SkillContentFileSchema = z.object({
  path: z.string(),
  content: z.string(),
  contentType: z.string(),
  bytes: z.number().int(),
});

export const SkillContentSchema = z
  .object({
    skillId: idOf("skill"),
    name: z.string().describe("The skill's name"),
    version: z.number().int().describe("The version whose files these are"),
    currentVersion: z.number().int().describe("The skill's current version; equal to `version` for the head"),
    manifest: SkillManifestSchema,
    files: z.array(SkillContentFileSchema).describe("The files, in path order; the shape publishing accepts"),
  })
  .describe("Full text of one version of a skill");

export const SkillFileUrlSchema = z
  .object({
    url: z.string().describe("Absolute URL serving the file without an API key until `expiresAt`"),
    expiresAt: Timestamp,
    path: z.string(),
    version: z.number().int().describe("The version the URL serves (resolved when omitted)"),
  })
  .describe("A signed, expiring link to one file of a skill version");

export const SkillStatusFilterSchema = z.enum(["active", "archived", "all"]);

export const SkillListQuerySchema = PageQuerySchema.extend({
  status: SkillStatusFilterSchema.default("active").describe("`active` (default), `archived` or `all`"),
  name: z.string().trim().min(1).max(200).optional().describe("Case-insensitive substring of the skill name"),
});

export const SkillVersionQuerySchema = z.object({
  version: z.coerce.number().int().min(1).optional().describe("A version number; the current version when omitted"),
});

export const SkillFileDownloadQuerySchema = z.object({
  expires: z.string().max(32).describe("Expiry, Unix seconds, as issued"),
  signature: z.string().max(128).describe("HMAC signature, as issued"),
});

export type SkillManifest = z.infer<typeof SkillManifestSchema>;
export type SkillManifestInput = z.infer<typeof SkillManifestInputSchema>;
export type SkillFileInput = z.infer<typeof SkillFileInputSchema>;
export type CreateSkill = z.infer<typeof CreateSkillSchema>;
export type PublishSkill = z.infer<typeof PublishSkillSchema>;
export type SkillFileRef = z.infer<typeof SkillFileRefSchema>;
export type Skill = z.infer<typeof SkillSchema>;
export type SkillSummary = z.infer<typeof SkillSummarySchema>;
export type SkillVersionSummary = z.infer<typeof SkillVersionSummarySchema>;
export type SkillContentFile = z.infer<typeof SkillContentFileSchema>;
export type SkillContent = z.infer<typeof SkillContentSchema>;
export type SkillFileUrl = z.infer<typeof SkillFileUrlSchema>;
export type SkillStatusFilter = z.infer<typeof SkillStatusFilterSchema>;
export type SkillListQuery = z.infer<typeof SkillListQuerySchema>;
