import { z } from "zod";
import { FileBytes } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import {
  CreateSkillSchema,
  PublishSkillSchema,
  SKILL_FILE_URL_TTL_SECONDS,
  SkillContentSchema,
  SkillFileDownloadQuerySchema,
  SkillFileUrlSchema,
  SkillListQuerySchema,
  SkillSchema,
  SkillSummarySchema,
  SkillVersionQuerySchema,
  SkillVersionSummarySchema,
} from "./schemas.js";

const SkillIdParams = z.object({ id: z.string().min(1).max(64) });

const FilePathParam = z
  .string()
  .min(1)
  .max(LIMITS.skillPathLength)
  .describe(
    "Path of the file inside the skill. It may contain `/`: send it as is (`…/files/scripts/run.py`) or " +
      "percent-encoded as one segment (`…/files/scripts%2Frun.py`); characters such as space, `?`, `#` and `%` " +
      "must be percent-encoded",
  );

/** Workspace-scoped skills: versioned, immutable packages of files that agents pin by version. */
export const skillsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/skills",
      body: CreateSkillSchema,
      responses: { 201: SkillSchema },
      summary: "Create a skill and publish version 1",
      description:
        "Creates a skill from its complete file set. Without `manifest`, the manifest is derived from a `SKILL.md` " +
        "whose YAML frontmatter has `name` and `description`, at the root or at the root of one top-level folder " +
        "(`entry` is that file's path). A `manifest.entry` that is not among the files, or a file set with no " +
        "usable `SKILL.md`, is 422 `skill.invalid_manifest`.",
      metadata: { errors: ["skill.invalid_manifest"] } satisfies RouteDocMetadata,
    },
    publish: {
      method: "POST",
      path: "/v1/skills/:id",
      pathParams: SkillIdParams,
      body: PublishSkillSchema,
      responses: { 200: SkillSchema },
      summary: "Publish a new version (complete file set, expected current version)",
      description:
        "`version` is the current version you expect, not the new number; `files` is the COMPLETE new set. On " +
        "success, current + 1 is published atomically and becomes current. If another publish happened in between, " +
        "409 `skill.version_conflict` and nothing is written. An archived skill answers 409 `skill.archived`. " +
        "Earlier versions never change.",
      metadata: {
        errors: ["skill.version_conflict", "skill.archived", "skill.invalid_manifest"],
      } satisfies RouteDocMetadata,
    },
    list: {
      method: "GET",
      path: "/v1/skills",
      query: SkillListQuerySchema,
      responses: { 200: cursorPage(SkillSummarySchema) },
      summary: "List the workspace's skills, newest first",
      description: "`status` defaults to `active`; `name` matches a case-insensitive substring of the skill name.",
    },
    get: {
      method: "GET",
      path: "/v1/skills/:id",
      pathParams: SkillIdParams,
      query: SkillVersionQuerySchema,
      responses: { 200: SkillSchema },
      summary: "Get a skill: manifest and file references of the current or the given version (no file text)",
      metadata: { errors: ["skill.version_not_found"] } satisfies RouteDocMetadata,
      description:
        "File paths with their size and content type, not their text: `GET …/content` returns the text, `GET …/files/{path}` a signed link to one file.",
    },
    listVersions: {
      method: "GET",
      path: "/v1/skills/:id/versions",
      pathParams: SkillIdParams,
      query: PageQuerySchema,
      responses: { 200: cursorPage(SkillVersionSummarySchema) },
      summary: "List the published versions of a skill, newest first",
      description: "Versions are immutable; each entry describes one published version.",
    },
    getContent: {
      method: "GET",
      path: "/v1/skills/:id/content",
      pathParams: SkillIdParams,
      query: SkillVersionQuerySchema,
      responses: { 200: SkillContentSchema },
      summary: "Full text of the current or the given version",
      description:
        "`files` has the shape publishing accepts (plus `contentType` and `bytes`), so it can be edited and sent " +
        "back to `POST /v1/skills/:id`. `currentVersion` tells whether `version` is the head. Works on archived skills.",
      metadata: { errors: ["skill.version_not_found"] } satisfies RouteDocMetadata,
    },
    getFileUrl: {
      method: "GET",
      path: "/v1/skills/:id/files/:path",
      pathParams: SkillIdParams.extend({ path: FilePathParam }),
      query: SkillVersionQuerySchema,
      responses: { 200: SkillFileUrlSchema },
      summary: "A signed, expiring URL for one file of the current or the given version",
      description:
        `The URL is absolute, pins the resolved version, is valid for ${SKILL_FILE_URL_TTL_SECONDS} seconds and is ` +
        "served by the platform without an API key (`GET /v1/files/skills/…`). A file not in the version is 404 " +
        "`skill.file_not_found`.",
      metadata: { errors: ["skill.version_not_found", "skill.file_not_found"] } satisfies RouteDocMetadata,
    },
    archive: {
      method: "POST",
      path: "/v1/skills/:id/archive",
      pathParams: SkillIdParams,
      body: z.object({}).strict().nullish(),
      responses: { 200: SkillSchema },
      summary: "Archive a skill",
      description:
        "Lists hide archived skills unless `status` says otherwise; publishing is refused with 409 " +
        "`skill.archived`. Reads keep working, so agents pinned to one of its versions keep working. " +
        "Archiving an archived skill returns it unchanged. The body may be empty or `{}`.",
    },
    downloadFile: {
      method: "GET",
      path: "/v1/files/skills/:id/versions/:version/:path",
      pathParams: SkillIdParams.extend({ version: z.coerce.number().int().min(1), path: FilePathParam }),
      query: SkillFileDownloadQuerySchema,
      responses: {
        // Any media type: the file's own (`text/markdown; charset=utf-8`, `text/x-python; charset=utf-8`, …).
        200: c.otherResponse({
          contentType: "*/*",
          body: FileBytes.describe("The raw file, with its own `Content-Type` (`text/markdown`, `text/x-python`, …)"),
        }),
      },
      summary: "Download a skill file through a signed URL (no API key)",
      description:
        "The URL comes from `GET /v1/skills/:id/files/:path`; no API key is needed. A tampered signature answers " +
        "403 `signature.invalid`, an expired one 403 `signature.expired`. The response is the file itself with its " +
        "`Content-Type`.",
      metadata: {
        errors: ["signature.invalid", "signature.expired", "skill.version_not_found", "skill.file_not_found"],
      } satisfies RouteDocMetadata,
    },
  },
  routerOptions,
);
