import express, { type Router } from "express";
import { artifactFileDownloads } from "../artifacts/serve-artifact-file.js";
import type { AppContext } from "../context.js";
import { skillFileDownloads } from "../skills/file-links.js";

/** Links signed by the platform (skill files, artifacts) are served under this prefix without an API key. */
export const PUBLIC_PREFIX = "/v1/files";

export function publicRoutes(ctx: AppContext): Router {
  const router = express.Router();
  router.use("/skills", skillFileDownloads(ctx));
  router.use("/artifacts", artifactFileDownloads(ctx));
  return router;
}
