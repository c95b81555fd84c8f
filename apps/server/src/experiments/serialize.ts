import type {
  ConversationTurn,
  ExpectedToolCall,
  Experiment,
  ExperimentResult,
  ExperimentStatus,
  ExperimentTask,
  ExperimentTotals,
  Score,
  Scorer,
} from "@agent-platform/contract";

export interface ExperimentRow {
  id: string;
  projectId: string;
  workspaceId: string;
  datasetId: string;
  name: string;
  task: ExperimentTask;
  scorers: Scorer[];
  concurrency: number;
  status: ExperimentStatus;
  caseCount: number;
  done: number;
  errored: number;
  totals: ExperimentTotals | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export const EXPERIMENT_COLUMNS = `"id", "projectId", "workspaceId", "datasetId", "name", "task", "scorers",
  "concurrency", "status", "caseCount", "done", "errored", "totals", "error", "createdAt", "startedAt", "finishedAt"`;

export function toExperiment(row: ExperimentRow): Experiment {
  return {
    id: row.id,
    projectId: row.projectId,
    datasetId: row.datasetId,
    name: row.name,
    task: row.task,
    scorers: row.scorers,
    concurrency: row.concurrency,
    status: row.status,
    caseCount: row.caseCount,
    progress: { done: row.done, errored: row.errored, total: row.caseCount },
    totals: row.totals,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export interface CaseRow {
  experimentId: string;
  position: number;
  caseId: string;
  input: string;
  expected: string | null;
  conversation: ConversationTurn[] | null;
  expectedTools: ExpectedToolCall[] | null;
  state: "pending" | "queued" | "completed" | "error";
  output: string | null;
  scores: Score[];
  latencyMs: number | null;
  inputTokens: number;
  outputTokens: number;
  judgeInputTokens: number;
  judgeOutputTokens: number;
  costUsd: number | null;
  error: string | null;
  sessionId: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export const CASE_COLUMNS = `"experimentId", "position", "caseId", "input", "expected", "conversation", "expectedTools", "state", "output", "scores",
  "latencyMs", "inputTokens", "outputTokens", "judgeInputTokens", "judgeOutputTokens", "costUsd", "error", "sessionId",
  "startedAt", "finishedAt"`;

export function toResult(row: CaseRow): ExperimentResult {
  return {
    caseId: row.caseId,
    position: row.position,
    status: row.state === "completed" ? "completed" : "error",
    input: row.input,
    expected: row.expected,
    output: row.output,
    scores: row.scores,
    latencyMs: row.latencyMs,
    usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens },
    error: row.error,
    sessionId: row.sessionId,
    finishedAt: (row.finishedAt ?? new Date(0)).toISOString(),
  };
}
