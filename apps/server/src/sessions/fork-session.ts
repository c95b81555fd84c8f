import type { ForkSessionInput, Session } from "@agent-platform/contract";
import { loadAgentVersion } from "../agents/load-agent-version.js";
import type { AppContext } from "../context.js";
import { redactsStoredInput, sessionGuardrails } from "../guardrails/index.js";
import { AppError } from "../http/app-error.js";
import { inTransaction } from "../lib/transaction.js";
import { insertFork, loadSessionLoopSettings, readForkPoint, toSession } from "./log/index.js";

/**
 * Forks a session at `atSeq` (docs/sessions.md "Fork a session"): reads the fork point (refusing an open turn), resolves
 * the agent version (the source's, or `input.agent`; an archived agent is refused as at creation), then writes the fork
 * in one short transaction whose cost does not grow with the number of copied entries' round trips.
 */
export async function forkSession(
  ctx: AppContext,
  projectId: string,
  sourceId: string,
  input: ForkSessionInput,
): Promise<Session> {
  const point = await readForkPoint(ctx.db.pool, projectId, sourceId, input.atSeq);
  if (point.open) {
    throw new AppError(
      "session.fork_point_open",
      `Entry ${input.atSeq} of session ${sourceId} is inside an open turn (running, or tool uses without results); ` +
        "fork at the user.message that started the turn or after the turn's session.status_idle",
    );
  }
  let agentId = point.agentId;
  let agentVersion = point.agentVersion;
  let screensInput: boolean | undefined;
  if (input.agent !== undefined) {
    const ref = typeof input.agent === "string" ? { id: input.agent } : input.agent;
    const agent = await loadAgentVersion(ctx, projectId, ref.id, "version" in ref ? ref.version : undefined);
    if (agent.archivedAt) {
      throw new AppError("agent.archived", `Agent ${agent.agentId} is archived; duplicate it to start new sessions`);
    }
    agentId = agent.agentId;
    agentVersion = agent.version;
    // The fork keeps the source's own guardrails; without them it runs the other version's.
    const own = (await loadSessionLoopSettings(ctx.db.pool, sourceId)).guardrails;
    screensInput = redactsStoredInput(sessionGuardrails(own, agent.config));
  }
  const row = await inTransaction(ctx.db.pool, (client) =>
    insertFork(client, {
      sourceId,
      atSeq: input.atSeq,
      point,
      agentId,
      agentVersion,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
      ...(screensInput !== undefined ? { screensInput } : {}),
    }),
  );
  return toSession(row);
}
