import express, { type RequestHandler, type Router } from "express";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { artifactFilePath } from "./artifact-links.js";

interface ContentRow {
  name: string;
  content: string;
  data: Buffer | null;
  contentType: string;
}

function contentDisposition(name: string): string {
  const base = name.split("/").pop() || "artifact";
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

/**
 * `GET /v1/files/artifacts/:id?expires=…&signature=…`: one artifact version's content, without an API key. The
 * signature is checked before the database is touched, so an unsigned request learns nothing about what exists. The
 * content is served sandboxed (CSP `sandbox`, `nosniff`): an agent-written `text/html` never runs as the platform.
 */
function serveArtifactFile(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    const id = String(req.params.id);
    const check = ctx.signer.verify(artifactFilePath(id), req.query.expires, req.query.signature);
    if (check === "invalid") return next(new AppError("signature.invalid", "The link's signature is not valid"));
    if (check === "expired") return next(new AppError("signature.expired", "The link has expired"));
    ctx.db.pool
      .query<ContentRow>('SELECT "name", "content", "data", "contentType" FROM artifacts WHERE "id" = $1', [id])
      .then(({ rows }) => {
        const row = rows[0];
        if (!row) throw new AppError("session.artifact_not_found", `Artifact ${id} was not found`);
        res.status(200);
        const text = row.data === null;
        res.setHeader(
          "Content-Type",
          !text || /;\s*charset=/i.test(row.contentType) ? row.contentType : `${row.contentType}; charset=utf-8`,
        );
        res.setHeader("Content-Disposition", contentDisposition(row.name));
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
        res.setHeader("Cache-Control", "private, no-store");
        res.end(row.data ?? Buffer.from(row.content, "utf8"));
      })
      .catch(next);
  };
}

/** Mounted at `/v1/files/artifacts` by the public routes. */
export function artifactFileDownloads(ctx: AppContext): Router {
  const router = express.Router();
  router.get("/:id", serveArtifactFile(ctx));
  return router;
}
