import { Readable } from "node:stream";
import { sessionFilesContract } from "@agent-platform/contract";
import { createExpressEndpoints, initServer, type TsRestExpressOptions } from "@ts-rest/express";
import type { Router } from "express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import { pathAsOneSegment } from "../http/path-as-one-segment.js";
import { listWorkspaceFiles, readWorkspaceFile, uploadWorkspaceFile } from "./workspace-files.js";

const s = initServer();

function contentDisposition(path: string): string {
  const base = path.split("/").pop() || "file";
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

export function sessionFileRoutes(ctx: AppContext) {
  return s.router(sessionFilesContract, {
    upload: async ({ req, params, body }) => {
      projectScope(req, params.projectId);
      return { status: 201, body: await uploadWorkspaceFile(ctx, params.projectId, params.id, body) };
    },
    list: async ({ req, params }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: await listWorkspaceFiles(ctx, params.projectId, params.id) };
    },
    download: async ({ req, res, params }) => {
      projectScope(req, params.projectId);
      const file = await readWorkspaceFile(ctx, params.projectId, params.id, params.path);
      // Always a download, never rendered: the content is whatever the agent's code wrote.
      res.setHeader("Content-Type", "application/octet-stream");
      res.setHeader("Content-Length", String(file.content.length));
      res.setHeader("Content-Disposition", contentDisposition(file.path));
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Cache-Control", "private, no-store");
      return { status: 200, body: Readable.from([file.content]) as unknown as Uint8Array };
    },
  });
}

/** `GET …/sessions/:id/files/*path`: see `pathAsOneSegment`. */
const filePathAsOneSegment = pathAsOneSegment(/\/v1\/projects\/[^/]+\/sessions\/[^/]+\/files\//i);

export function registerSessionFileRoutes(
  app: Router,
  ctx: AppContext,
  options: TsRestExpressOptions<typeof sessionFilesContract>,
): void {
  app.get("/v1/projects/:projectId/sessions/:id/files/*", filePathAsOneSegment);
  createExpressEndpoints(sessionFilesContract, sessionFileRoutes(ctx), app, options);
}
