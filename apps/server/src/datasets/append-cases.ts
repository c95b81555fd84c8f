import { type DatasetCaseInput, LIMITS } from "@agent-platform/contract";
import type { Database, Prisma } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { newId } from "../ids.js";
import { toDataset } from "./serialize.js";

type Transaction = Parameters<Parameters<Database["$transaction"]>[0]>[0];

export function caseRows(datasetId: string, firstPosition: number, cases: DatasetCaseInput[]) {
  return cases.map((c, i) => ({
    id: newId("datasetCase"),
    datasetId,
    position: firstPosition + i,
    input: c.input,
    expected: c.expected ?? null,
    // Absent (undefined) leaves the JSON column SQL NULL.
    conversation: c.conversation as Prisma.InputJsonValue | undefined,
    expectedTools: c.expectedTools as Prisma.InputJsonValue | undefined,
    metadata: c.metadata ?? {},
  }));
}

/**
 * Appends after the existing cases. The counter is bumped by one conditional `UPDATE … RETURNING` whose row lock
 * serialises concurrent appends, so positions never collide and `caseCount` stays exact.
 */
export async function appendDatasetCases(
  prisma: Database,
  projectId: string,
  datasetId: string,
  cases: DatasetCaseInput[],
) {
  return prisma.$transaction(async (tx: Transaction) => {
    const [dataset] = await tx.dataset.updateManyAndReturn({
      where: { id: datasetId, projectId, caseCount: { lte: LIMITS.datasetCases - cases.length } },
      data: { caseCount: { increment: cases.length } },
    });
    if (!dataset) {
      const existing = await tx.dataset.findFirst({ where: { id: datasetId, projectId }, select: { caseCount: true } });
      if (!existing) throw notFound("dataset.not_found", "Dataset", datasetId);
      throw new AppError(
        "dataset.too_many_cases",
        `A dataset holds at most ${LIMITS.datasetCases} cases; it has ${existing.caseCount} and ${cases.length} were sent`,
      );
    }
    const rows = caseRows(datasetId, dataset.caseCount - cases.length + 1, cases);
    await tx.datasetCase.createMany({ data: rows });
    return { dataset: toDataset(dataset), cases: rows.map((r) => ({ id: r.id, position: r.position })) };
  });
}
