import { type AgentTask, OUTCOME_DEFAULT_REVISIONS } from "@agent-platform/contract";
import type pg from "pg";
import type { LoadedAgentVersion } from "../../agents/index.js";
import type { AppContext } from "../../context.js";
import { redactsStoredInput } from "../../guardrails/index.js";
import { insertSession, resolveExecutionSettings } from "../../sessions/index.js";
import type { CaseRow, ExperimentRow } from "../serialize.js";

/**
 * Creates the session of an agent case, in the caller's fenced transaction: the frozen agent version, its execution
 * defaults resolved as for any session (a default that vanished since is a case error, thrown as the AppError), the
 * case's `conversation` as finished turns then its input as a `user.message`, and loop settings with no operator (a tool use that would wait for an answer
 * ends the turn with `session.operator_required`), `maxTurns` as the cap on model calls and read confinement when
 * asked. The session id is recorded on the case, so a re-run after a crash waits for the same session.
 */
export async function createCaseSession(
  ctx: AppContext,
  client: pg.PoolClient,
  experiment: ExperimentRow,
  row: CaseRow,
  task: AgentTask,
  agent: LoadedAgentVersion,
): Promise<string> {
  const scope = { workspaceId: experiment.workspaceId, projectId: experiment.projectId };
  const settings = await resolveExecutionSettings(ctx, scope, {}, agent.config.defaults);
  const session = await insertSession(client, {
    ...scope,
    agentId: agent.agentId,
    agentVersion: agent.version,
    title: `${experiment.name} · case ${row.position}`.slice(0, 200),
    metadata: { experimentId: experiment.id, datasetCaseId: row.caseId },
    settings,
    events: [{ type: "user.message", content: [{ type: "text", text: row.input }] }],
    parentSessionId: null,
    screensInput: redactsStoredInput(agent.config.guardrails ?? []),
    ...(row.conversation ? { history: row.conversation } : {}),
    loop: {
      operator: false,
      maxModelCalls: task.maxTurns,
      readonly: task.confineReadonly,
      ...(task.outcome
        ? {
            outcome: {
              scorers: task.outcome.scorers,
              maxRevisions: task.outcome.maxRevisions ?? OUTCOME_DEFAULT_REVISIONS,
            },
          }
        : {}),
    },
  });
  await client.query(`UPDATE experiment_cases SET "sessionId" = $3 WHERE "experimentId" = $1 AND "position" = $2`, [
    experiment.id,
    row.position,
    session.id,
  ]);
  return session.id;
}
