import { skillsContract } from "@agent-platform/contract";
import { createExpressEndpoints, initServer, type TsRestExpressOptions } from "@ts-rest/express";
import type { Router } from "express";
import type { AppContext } from "../context.js";
import { authOf } from "../http/auth-context.js";
import { pathAsOneSegment } from "../http/path-as-one-segment.js";
import { signSkillFileUrl } from "./file-links.js";
import {
  archiveSkill,
  createSkill,
  getSkill,
  getSkillContent,
  listSkills,
  listSkillVersions,
  publishSkill,
} from "./skills-service.js";

const { downloadFile: _servedWithoutKey, ...skillsApi } = skillsContract;

/** The authenticated skills routes; `downloadFile` is served by `skillFileDownloads` under the public prefix. */
export const skillsApiContract = skillsApi;

const s = initServer();

export function skillsRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return s.router(skillsApiContract, {
    create: async ({ req, body }) => ({ status: 201, body: await createSkill(prisma, authOf(req), body) }),
    publish: async ({ req, params, body }) => ({
      status: 200,
      body: await publishSkill(prisma, authOf(req), params.id, body),
    }),
    list: async ({ req, query }) => ({ status: 200, body: await listSkills(prisma, authOf(req), query) }),
    get: async ({ req, params, query }) => ({
      status: 200,
      body: await getSkill(prisma, authOf(req), params.id, query.version),
    }),
    listVersions: async ({ req, params, query }) => ({
      status: 200,
      body: await listSkillVersions(prisma, authOf(req), params.id, query.limit, query.cursor),
    }),
    getContent: async ({ req, params, query }) => ({
      status: 200,
      body: await getSkillContent(prisma, authOf(req), params.id, query.version),
    }),
    getFileUrl: async ({ req, params, query }) => ({
      status: 200,
      body: await signSkillFileUrl(ctx, authOf(req), {
        id: params.id,
        path: params.path,
        version: query.version,
        requestOrigin: `${req.protocol}://${req.get("host")}`,
      }),
    }),
    archive: async ({ req, params }) => ({ status: 200, body: await archiveSkill(prisma, authOf(req), params.id) }),
  });
}

/** `GET /v1/skills/:id/files/*path`: see `pathAsOneSegment`. */
export const fileUrlPathAsOneSegment = pathAsOneSegment(/\/v1\/skills\/[^/]+\/files\//i);

/** Registers the skills routes on the router (behind the API key middleware). */
export function registerSkillsRoutes(
  app: Router,
  ctx: AppContext,
  options: TsRestExpressOptions<typeof skillsApiContract>,
): void {
  app.get("/v1/skills/:id/files/*", fileUrlPathAsOneSegment);
  createExpressEndpoints(skillsApiContract, skillsRoutes(ctx), app, options);
}
