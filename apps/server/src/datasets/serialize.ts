import type { ConversationTurn, Dataset, DatasetCase, ExpectedToolCall } from "@agent-platform/contract";
import type { DatasetCase as DatasetCaseRow, Dataset as DatasetRow } from "@agent-platform/db";

export function toDataset(row: DatasetRow): Dataset {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    caseCount: row.caseCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDatasetCase(row: DatasetCaseRow): DatasetCase {
  return {
    id: row.id,
    datasetId: row.datasetId,
    position: row.position,
    input: row.input,
    expected: row.expected,
    conversation: (row.conversation ?? null) as ConversationTurn[] | null,
    expectedTools: (row.expectedTools ?? null) as ExpectedToolCall[] | null,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    createdAt: row.createdAt.toISOString(),
  };
}
