import {
  type AgentTask,
  BudgetMeterSchema,
  type CreateExperiment,
  type Experiment,
  type ExperimentTask,
  LIMITS,
} from "@agent-platform/contract";
import type pg from "pg";
import { loadAgentVersion } from "../agents/index.js";
import { budgetExceededError, checkBudgets } from "../budgets/index.js";
import type { AppContext } from "../context.js";
import { AppError, notFound } from "../http/app-error.js";
import { newId } from "../ids.js";
import { inTransaction } from "../lib/transaction.js";
import { queuePendingCases } from "./queue-cases.js";
import { EXPERIMENT_COLUMNS, type ExperimentRow, toExperiment } from "./serialize.js";
import { validateCreate } from "./validate-create.js";

interface Scope {
  workspaceId: string;
  projectId: string;
}

/**
 * Creates an experiment (spec rules 1, 2 and 5): an agent task's version is resolved and frozen (the current one when
 * omitted), refused when the agent is missing, archived or the version missing; blocking budgets of the workspace (and
 * of the agent) must not be exhausted. One transaction then copies the dataset's cases (what the experiment runs,
 * whatever is appended later), refuses an empty dataset or an agent task over 200 cases, and queues the first
 * `concurrency` cases as jobs.
 */
export async function createExperiment(ctx: AppContext, scope: Scope, body: CreateExperiment): Promise<Experiment> {
  validateCreate(ctx, body);
  const task = await frozenTask(ctx, scope, body.task);
  const exceeded = await checkBudgets(ctx.db.pool, {
    workspaceId: scope.workspaceId,
    agentId: task.type === "agent" ? task.agentId : null,
    meters: BudgetMeterSchema.options,
  });
  if (exceeded) throw budgetExceededError(exceeded);

  const id = newId("experiment");
  const row = await inTransaction(ctx.db.pool, async (client) => {
    await requireDataset(client, scope.projectId, body.datasetId);
    await client.query(
      `INSERT INTO experiments ("id", "projectId", "workspaceId", "datasetId", "name", "task", "scorers",
         "concurrency", "status", "caseCount")
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, 'pending', 0)`,
      [
        id,
        scope.projectId,
        scope.workspaceId,
        body.datasetId,
        body.name,
        JSON.stringify(task),
        JSON.stringify(body.scorers),
        body.concurrency,
      ],
    );
    const copied = await client.query(
      `INSERT INTO experiment_cases ("experimentId", "position", "caseId", "input", "expected", "conversation",
         "expectedTools")
       SELECT $1, "position", "id", "input", "expected", "conversation", "expectedTools" FROM dataset_cases
       WHERE "datasetId" = $2`,
      [id, body.datasetId],
    );
    const count = copied.rowCount ?? 0;
    refuseCaseCount(body.datasetId, task, count);
    await queuePendingCases(client, id, body.concurrency);
    const { rows } = await client.query<ExperimentRow>(
      `UPDATE experiments SET "caseCount" = $2 WHERE "id" = $1 RETURNING ${EXPERIMENT_COLUMNS}`,
      [id, count],
    );
    return rows[0]!;
  });
  return toExperiment(row);
}

async function frozenTask(ctx: AppContext, scope: Scope, task: CreateExperiment["task"]): Promise<ExperimentTask> {
  if (task.type === "model") return task;
  const agent = await loadAgentVersion(ctx, scope.projectId, task.agentId, task.agentVersion);
  if (agent.archivedAt) {
    throw new AppError("agent.archived", `Agent ${task.agentId} is archived; duplicate it to run experiments`);
  }
  return { ...task, agentVersion: agent.version } satisfies AgentTask;
}

async function requireDataset(client: pg.PoolClient, projectId: string, datasetId: string): Promise<void> {
  // FOR SHARE: cases appended concurrently land wholly before or wholly after the copy.
  const { rowCount } = await client.query(`SELECT 1 FROM datasets WHERE "id" = $1 AND "projectId" = $2 FOR SHARE`, [
    datasetId,
    projectId,
  ]);
  if (!rowCount) throw notFound("dataset.not_found", "Dataset", datasetId);
}

function refuseCaseCount(datasetId: string, task: ExperimentTask, count: number): void {
  if (count === 0) {
    throw new AppError("experiment.empty_dataset", `Dataset ${datasetId} has no cases: add cases before running it`);
  }
  const ceiling = LIMITS.experimentAgentCases;
  if (task.type === "agent" && count > ceiling) {
    throw new AppError(
      "experiment.too_many_cases",
      `An agent experiment runs at most ${ceiling} cases; dataset ${datasetId} has ${count}`,
    );
  }
}
