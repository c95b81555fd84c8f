import { artifactsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import { listSessionArtifacts } from "./list-artifacts.js";

const s = initServer();

export function artifactsRoutes(ctx: AppContext) {
  return s.router(artifactsContract, {
    list: async ({ req, params }) => {
      projectScope(req, params.projectId);
      return { status: 200, body: await listSessionArtifacts(ctx, params.projectId, params.id) };
    },
  });
}
