import type { DatasetCase, UpdateDatasetCase } from "@agent-platform/contract";
import { type Database, Prisma } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { getDataset } from "./datasets-service.js";
import { toDatasetCase } from "./serialize.js";

/**
 * Edits a case's `expected` and `expectedTools` (absent: unchanged; null: removed) in one conditional update scoped to
 * the dataset and its project; when nothing matched, says whether the dataset or the case is missing.
 */
export async function updateDatasetCase(
  prisma: Database,
  projectId: string,
  datasetId: string,
  caseId: string,
  body: UpdateDatasetCase,
): Promise<DatasetCase> {
  const data: Prisma.DatasetCaseUpdateManyMutationInput = {};
  if (body.expected !== undefined) data.expected = body.expected;
  if (body.expectedTools !== undefined) {
    data.expectedTools = body.expectedTools === null ? Prisma.DbNull : (body.expectedTools as Prisma.InputJsonValue);
  }
  const [row] = await prisma.datasetCase.updateManyAndReturn({
    where: { id: caseId, datasetId, dataset: { projectId } },
    data,
  });
  if (row) return toDatasetCase(row);
  await getDataset(prisma, projectId, datasetId);
  throw new AppError("dataset.case_not_found", `Dataset case ${caseId} was not found`);
}
