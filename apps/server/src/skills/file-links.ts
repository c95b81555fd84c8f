import { encodeSkillPath, SKILL_FILE_URL_TTL_SECONDS, type SkillFileUrl } from "@agent-platform/contract";
import express, { type ErrorRequestHandler, type Router } from "express";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import { findSkillFile } from "./skills-service.js";
import { readSkillVersion } from "./version-store.js";

/**
 * Signed links to skill files. A link is `/v1/files/skills/<skillId>/versions/<version>/<path>?expires=…&signature=…`
 * with the file path percent-encoded as one segment (`scripts%2Frun.py`, what the document's `{path}` parameter
 * describes), signed over that path and its expiry. It pins the version, so what it serves never changes; it is served
 * without an API key by `skillFileDownloads`, mounted at `/v1/files/skills`.
 */
export const SKILL_FILES_PUBLIC_PATH = "/v1/files/skills";

export function skillFileLinkPath(skillId: string, version: number, path: string, base = SKILL_FILES_PUBLIC_PATH) {
  return `${base}/${encodeURIComponent(skillId)}/versions/${version}/${encodeURIComponent(path)}`;
}

/** The form links had before they encoded the path as one segment (slashes kept): still valid until they expire. */
function legacyLinkPath(skillId: string, version: number, path: string, base: string) {
  return `${base}/${encodeURIComponent(skillId)}/versions/${version}/${encodeSkillPath(path)}`;
}

/** `GET /v1/skills/:id/files/:path`: an absolute signed URL for a file of the current or the given version. */
export async function signSkillFileUrl(
  ctx: AppContext,
  auth: AuthContext,
  input: { id: string; path: string; version?: number; requestOrigin: string },
): Promise<SkillFileUrl> {
  const file = await findSkillFile(ctx.db.prisma, auth, input.id, input.path, input.version);
  const signed = ctx.signer.signPath(skillFileLinkPath(input.id, file.version, file.path), SKILL_FILE_URL_TTL_SECONDS);
  const origin = (ctx.config.publicUrl ?? input.requestOrigin).replace(/\/+$/, "");
  return {
    url: `${origin}${signed.url}`,
    expiresAt: signed.expiresAt.toISOString(),
    path: file.path,
    version: file.version,
  };
}

function contentDisposition(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return `inline; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Serves signed skill file links without an API key. The signature is checked first (403 `signature.invalid` or
 * `signature.expired`), then the file is read from the immutable version cache and sent raw with its content type.
 * Files are served sandboxed (`Content-Security-Policy: sandbox`, `nosniff`) because they are user content on the
 * API's origin.
 */
export function skillFileDownloads(ctx: AppContext): Router {
  const router = express.Router();
  router.get("/:id/versions/:version/*", (req, res, next) => {
    (async () => {
      const params = req.params as Record<string, string>;
      const skillId = params.id!;
      const version = /^[1-9][0-9]{0,9}$/.test(params.version!) ? Number(params.version) : Number.NaN;
      const path = params[0] ?? "";
      const verify = (signedPath: string) => ctx.signer.verify(signedPath, req.query.expires, req.query.signature);
      let check: ReturnType<typeof verify> = "invalid";
      if (!Number.isNaN(version)) {
        check = verify(skillFileLinkPath(skillId, version, path, req.baseUrl));
        if (check === "invalid") check = verify(legacyLinkPath(skillId, version, path, req.baseUrl));
      }
      if (check === "invalid") throw new AppError("signature.invalid", "The link's signature is not valid");
      if (check === "expired") throw new AppError("signature.expired", "The link has expired; ask for a new one");
      const content = await readSkillVersion(ctx.db.prisma, skillId, version);
      if (!content) throw new AppError("skill.version_not_found", `Skill ${skillId} has no version ${version}`);
      const file = content.files.find((f) => f.path === path);
      if (!file) throw new AppError("skill.file_not_found", `Version ${version} of skill ${skillId} has no such file`);
      const expires = Number(req.query.expires);
      const maxAge = Math.max(0, Math.min(SKILL_FILE_URL_TTL_SECONDS, expires - Math.floor(Date.now() / 1000)));
      res.status(200);
      res.setHeader("Content-Type", file.contentType);
      res.setHeader("Content-Disposition", contentDisposition(file.path));
      res.setHeader("ETag", `"${file.sha256}"`);
      res.setHeader("Cache-Control", `private, max-age=${maxAge}, immutable`);
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
      res.send(Buffer.from(file.content, "utf8"));
    })().catch(next);
  });
  // A malformed percent-escape in the link cannot match any signature.
  const malformed: ErrorRequestHandler = (err, _req, _res, next) => {
    next(err instanceof URIError ? new AppError("signature.invalid", "The link is malformed") : err);
  };
  router.use(malformed);
  return router;
}
