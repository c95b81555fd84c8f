import type { Dataset, DatasetCaseInput } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { notFound } from "../http/app-error.js";
import { decodeCursor, decodeNumberCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { caseRows } from "./append-cases.js";
import { toDataset, toDatasetCase } from "./serialize.js";

export async function createDataset(
  prisma: Database,
  projectId: string,
  input: { name: string; description?: string; cases?: DatasetCaseInput[] },
): Promise<Dataset> {
  const id = newId("dataset");
  const cases = input.cases ?? [];
  const [row] = await prisma.$transaction([
    prisma.dataset.create({
      data: { id, projectId, name: input.name, description: input.description ?? null, caseCount: cases.length },
    }),
    prisma.datasetCase.createMany({ data: caseRows(id, 1, cases) }),
  ]);
  return toDataset(row);
}

export async function listDatasets(
  prisma: Database,
  projectId: string,
  query: { limit: number; cursor?: string; name?: string },
) {
  const filters = { name: query.name };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.dataset.findMany({
    where: {
      projectId,
      ...(query.name !== undefined ? { name: query.name } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.id, toDataset);
}

async function datasetOf(prisma: Database, projectId: string, id: string) {
  const row = await prisma.dataset.findFirst({ where: { id, projectId } });
  if (!row) throw notFound("dataset.not_found", "Dataset", id);
  return row;
}

export async function getDataset(prisma: Database, projectId: string, id: string): Promise<Dataset> {
  return toDataset(await datasetOf(prisma, projectId, id));
}

/** Cases in dataset order (ascending `position`). */
export async function listDatasetCases(
  prisma: Database,
  projectId: string,
  datasetId: string,
  query: { limit: number; cursor?: string },
) {
  const filters = { datasetId };
  const after = decodeNumberCursor(query.cursor, filters);
  await datasetOf(prisma, projectId, datasetId);
  const rows = await prisma.datasetCase.findMany({
    where: { datasetId, ...(after !== undefined ? { position: { gt: after } } : {}) },
    orderBy: { position: "asc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.position, toDatasetCase);
}

/** For experiments: the dataset and every case in order, read in one snapshot; null when not in the project. */
export async function loadDatasetWithCases(prisma: Database, projectId: string, datasetId: string) {
  return prisma.dataset.findFirst({
    where: { id: datasetId, projectId },
    include: { cases: { orderBy: { position: "asc" } } },
  });
}
