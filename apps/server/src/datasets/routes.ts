import { datasetsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import { appendDatasetCases } from "./append-cases.js";
import { appendCaseFromSession } from "./case-from-session.js";
import { createDataset, getDataset, listDatasetCases, listDatasets } from "./datasets-service.js";
import { updateDatasetCase } from "./update-case.js";

const s = initServer();

export function datasetRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const project = (req: Parameters<typeof projectScope>[0], projectId: string) =>
    projectScope(req, projectId).projectId;
  return s.router(datasetsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createDataset(prisma, project(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listDatasets(prisma, project(req, params.projectId), query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getDataset(prisma, project(req, params.projectId), params.id),
    }),
    appendCases: async ({ req, params, body }) => ({
      status: 201,
      body: await appendDatasetCases(prisma, project(req, params.projectId), params.id, body.cases),
    }),
    appendCaseFromSession: async ({ req, params, body }) => ({
      status: 201,
      body: await appendCaseFromSession(ctx, project(req, params.projectId), params.id, body),
    }),
    updateCase: async ({ req, params, body }) => ({
      status: 200,
      body: await updateDatasetCase(prisma, project(req, params.projectId), params.id, params.caseId, body),
    }),
    listCases: async ({ req, params, query }) => ({
      status: 200,
      body: await listDatasetCases(prisma, project(req, params.projectId), params.id, query),
    }),
  });
}
