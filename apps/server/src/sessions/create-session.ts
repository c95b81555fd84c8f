import { type CreateSessionInput, OUTCOME_DEFAULT_REVISIONS, type Session } from "@agent-platform/contract";
import { guessCurrentVersion, loadAgentVersion, versionConfig } from "../agents/load-agent-version.js";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { invalidRequest } from "../http/error-envelope.js";
import { inTransaction } from "../lib/transaction.js";
import { regexProblem } from "../scoring/regex.js";
import {
  type ExecutionSettings,
  insertSession,
  insertUnbudgetedSession,
  type NewSession,
  toSession,
} from "./log/index.js";
import { resolveExecutionSettings } from "./resolve-execution.js";
import { checkSessionGuardrails, sessionGuardrailSettings } from "./session-guardrails.js";

interface Scope {
  workspaceId: string;
  projectId: string;
}

export interface CreateSessionOptions {
  /** The coordinator's session, when the new session is a delegation. */
  parentSessionId?: string;
}

/**
 * Creates a session: resolves the agent version (current when only an id is given; an archived agent is refused), then
 * `environmentId`, `vaultIds` and `resources` once by the spec's precedence, and writes it: in one statement when no
 * blocking budget counts its meters and it has no initial events (`insertUnbudgetedSession`), otherwise in one
 * transaction that reserves the session on the blocking budgets, inserts it, appends the initial events and, when
 * there were events, records the work request for the loop (`insertSession`).
 */
export async function createSession(
  ctx: AppContext,
  scope: Scope,
  input: CreateSessionInput,
  options: CreateSessionOptions = {},
): Promise<Session> {
  checkOutcome(input);
  checkSessionGuardrails(ctx, input.guardrails);
  const ref = typeof input.agent === "string" ? { id: input.agent } : input.agent;
  const pinned = "version" in ref ? ref.version : undefined;
  // A session with an outcome or its own guardrails has loop settings: it takes the transaction.
  if ((input.events ?? []).length === 0 && !input.outcome && !input.guardrails) {
    const quick = await createOnAssumedHead(ctx, scope, input, ref.id, pinned, options);
    if (quick) return quick;
  }
  const agent = await loadAgentVersion(ctx, scope.projectId, ref.id, pinned);
  if (agent.archivedAt) {
    throw new AppError("agent.archived", `Agent ${agent.agentId} is archived; duplicate it to start new sessions`);
  }
  const settings = await resolveExecutionSettings(ctx, scope, input, agent.config.defaults);
  const guarded = sessionGuardrailSettings(input.guardrails, agent.config);

  const session: NewSession = {
    workspaceId: scope.workspaceId,
    projectId: scope.projectId,
    agentId: agent.agentId,
    agentVersion: agent.version,
    title: input.title ?? null,
    metadata: input.metadata ?? {},
    settings,
    events: input.events ?? [],
    parentSessionId: options.parentSessionId ?? null,
    ...guarded.session,
    ...(input.outcome || guarded.loop
      ? {
          loop: {
            ...(input.outcome
              ? {
                  outcome: {
                    scorers: input.outcome.scorers,
                    maxRevisions: input.outcome.maxRevisions ?? OUTCOME_DEFAULT_REVISIONS,
                  },
                }
              : {}),
            ...guarded.loop,
          },
        }
      : {}),
  };
  const row =
    (session.events.length === 0 && !session.loop ? await insertUnbudgetedSession(ctx.db.pool, session) : null) ??
    (await inTransaction(ctx.db.pool, (client) => insertSession(client, session)));
  return toSession(row);
}

/** What the schema cannot check of an outcome: its regex scorers must compile on RE2 (400 at the pattern's path). */
function checkOutcome(input: CreateSessionInput): void {
  const issues = (input.outcome?.scorers ?? []).flatMap((scorer, index) => {
    const problem = scorer.type === "regex" ? regexProblem(scorer.pattern, scorer.flags) : null;
    return problem ? [{ path: `body.outcome.scorers.${index}.pattern`, message: problem }] : [];
  });
  if (issues.length > 0) throw invalidRequest(issues);
}

/**
 * The common case in one statement, without reading the agent's head first: the version is the pinned one or the
 * current version this process last saw (versions are immutable, their defaults cached), and the insert checks in the
 * same statement that the agent is in the project, not archived, and still at that version. Null when anything does
 * not hold (or a blocking budget applies, or the agent's version is not known here): the caller takes the general
 * path, which reads the head and reports what is wrong.
 */
async function createOnAssumedHead(
  ctx: AppContext,
  scope: Scope,
  input: CreateSessionInput,
  agentId: string,
  pinned: number | undefined,
  options: CreateSessionOptions,
): Promise<Session | null> {
  const version = pinned ?? guessCurrentVersion(agentId);
  if (version === undefined) return null;
  let settings: ExecutionSettings;
  let screensInput: boolean;
  try {
    const config = await versionConfig(ctx, agentId, version);
    screensInput = sessionGuardrailSettings(undefined, config).session.screensInput === true;
    settings = await resolveExecutionSettings(ctx, scope, input, config.defaults);
  } catch (error) {
    // The general path reports errors in their order (the agent first).
    if (error instanceof AppError) return null;
    throw error;
  }
  const session: NewSession = {
    workspaceId: scope.workspaceId,
    projectId: scope.projectId,
    agentId,
    agentVersion: version,
    title: input.title ?? null,
    metadata: input.metadata ?? {},
    settings,
    events: [],
    parentSessionId: options.parentSessionId ?? null,
    screensInput,
  };
  const row = await insertUnbudgetedSession(ctx.db.pool, session, { pinned: pinned !== undefined });
  return row ? toSession(row) : null;
}
