import express, { type Router } from "express";
import type { AppContext } from "../context.js";

/** Links signed by the platform (skill files, artifacts) are served under this prefix without an API key. */
export const PUBLIC_PREFIX = "/v1/files";

export function publicRoutes(_ctx: AppContext): Router {
  const router = express.Router();
  return router;
}
