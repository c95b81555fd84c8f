import type { CaseFromSession } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { readTurnForCase } from "../sessions/index.js";
import { appendDatasetCases } from "./append-cases.js";
import { toDatasetCase } from "./serialize.js";

/**
 * Appends one case made from a session's turn (docs/experiments.md "From a session to a case"): the user's message as
 * `input`, the agent's final answer as `expected` unless the request gives one, the messages before it as
 * `conversation` when asked, and metadata linking back to the session and `seq`.
 */
export async function appendCaseFromSession(
  ctx: AppContext,
  projectId: string,
  datasetId: string,
  request: CaseFromSession,
) {
  const turn = await readTurnForCase(
    ctx.db.pool,
    projectId,
    request.sessionId,
    request.seq,
    request.includeConversation,
  );
  const expected = request.expected !== undefined ? request.expected : turn.answer;
  const appended = await appendDatasetCases(ctx.db.prisma, projectId, datasetId, [
    {
      input: turn.input,
      ...(expected !== null ? { expected } : {}),
      ...(request.includeConversation ? { conversation: turn.conversation } : {}),
      ...(request.expectedTools !== undefined ? { expectedTools: request.expectedTools } : {}),
      metadata: { ...request.metadata, sourceSessionId: request.sessionId, sourceSeq: String(request.seq) },
    },
  ]);
  const row = await ctx.db.prisma.datasetCase.findUniqueOrThrow({ where: { id: appended.cases[0]!.id } });
  return toDatasetCase(row);
}
