import type { AgentConfig, RosterEntry } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import {
  appendEvents,
  isChildSession,
  requestTurn,
  type SessionLoopSettings,
  type StoredEvent,
} from "../../sessions/index.js";
import { lastAgentText } from "../loop/conversation.js";
import { EV } from "../loop/events.js";
import { InterruptRequested } from "../loop/interrupt-watch.js";
import { analyzeLog } from "../loop/log-state.js";
import type { RuntimeTool, SessionRuntimeInfo, ToolResult, ToolRunContext } from "../tools/types.js";
import { createChildSession, isRefusal } from "./child-session.js";
import type { SessionDriver } from "./session-driver.js";

export const DELEGATE_PREFIX = "delegate_to_";
export const COLLECT_TOOL = "collect_delegation";

const TASK_SCHEMA = {
  type: "object",
  properties: {
    task: {
      type: "string",
      minLength: 1,
      description: "Everything the subagent needs: it sees nothing of this conversation",
    },
  },
  required: ["task"],
  additionalProperties: false,
};

const COLLECT_SCHEMA = {
  type: "object",
  properties: { sessionId: { type: "string", description: "`childSessionId` returned by a background delegation" } },
  required: ["sessionId"],
  additionalProperties: false,
};

function describe(entry: RosterEntry): string {
  const lines = [
    `Delegate a task to the "${entry.role}" subagent (agent ${entry.agentId}, version ${entry.version}). ` +
      "It works in a session of its own, with its own context and tools" +
      (entry.readonly ? " (read-only tools only)." : "."),
    entry.mode === "foreground"
      ? "Waits until the subagent has finished and returns its final answer."
      : `Starts the subagent and returns {"childSessionId"} at once; call ${COLLECT_TOOL} with that id to get its answer.`,
  ];
  if (entry.outputSchema) {
    lines.push(`Its answer follows this JSON Schema: ${JSON.stringify(entry.outputSchema)}`);
  }
  return lines.join("\n");
}

/** The outcome of a settled child session as the coordinator's model reads it. */
export function childOutcome(childId: string, events: readonly StoredEvent[]): ToolResult {
  const state = analyzeLog(events);
  const answer = lastAgentText(events);
  switch (state.lastStopReason) {
    case "error": {
      const error = [...events].reverse().find((e) => e.type === EV.sessionError)?.error as
        | { code?: string; message?: string }
        | undefined;
      return {
        content: `The subagent (session ${childId}) failed: ${error?.message ?? "unknown error"} (${error?.code ?? "error"})`,
        isError: true,
      };
    }
    case "interrupted":
      return { content: `The subagent (session ${childId}) was interrupted before it finished.`, isError: true };
    case "requires_action": {
      const waiting = state.next.kind === "await_actions" ? state.next.pending.map((p) => p.name).join(", ") : "";
      return {
        content:
          `The subagent (session ${childId}) is waiting for its operator to answer: ${waiting}. ` +
          "Collect it again later.",
        isError: false,
      };
    }
    case "max_turns":
      return {
        content: `${answer}\n\n(The subagent reached its cap on model calls before finishing.)`.trim(),
        isError: answer.length === 0,
      };
    default:
      return { content: answer, isError: false };
  }
}

/**
 * The delegation tools of a coordinator (`AgentConfig.multiagent`): one `delegate_to_<role>` per roster entry (input
 * `{task}`) and, when an entry runs in background, `collect_delegation {sessionId}`. Foreground delegations create the
 * child session with its work claimed by this worker and run it here to the end; the result is the child's last
 * agent message. Background delegations return `{childSessionId}` at once; `collect_delegation` waits for that child
 * (running it here when no other worker holds it) and returns its answer. Each spawn counts against
 * `budget.maxDelegations` of the whole tree; over it the tool answers with an error telling the model to conclude.
 */
export function delegationTools(input: {
  ctx: AppContext;
  driver: SessionDriver;
  session: SessionRuntimeInfo;
  agent: AgentConfig;
  settings: SessionLoopSettings;
}): RuntimeTool[] {
  const multiagent = input.agent.multiagent;
  if (!multiagent || multiagent.roster.length === 0) return [];
  const { ctx, driver } = input;
  const maxDelegations = multiagent.budget?.maxDelegations;

  const delegate = (entry: RosterEntry): RuntimeTool => ({
    name: `${DELEGATE_PREFIX}${entry.role}`,
    description: describe(entry),
    inputSchema: TASK_SCHEMA,
    origin: "delegation",
    readOnly: entry.readonly === true,
    async execute(raw: unknown, run: ToolRunContext): Promise<ToolResult> {
      const task = (raw as { task?: unknown }).task;
      if (typeof task !== "string" || task.trim().length === 0) {
        return { content: "Input needs `task`: a non-empty string", isError: true };
      }
      let child: Awaited<ReturnType<typeof createChildSession>>;
      try {
        child = await createChildSession(ctx, {
          coordinator: run.session,
          entry,
          task,
          toolUseId: run.toolUseId,
          maxDelegations,
          ...(entry.mode === "foreground" ? { claimAs: driver.newChildLease() } : {}),
        });
      } catch (error) {
        if (isRefusal(error)) return { content: error.message, isError: true };
        throw error;
      }
      if (entry.mode === "background") {
        return { content: JSON.stringify({ childSessionId: child.id, status: "started" }), isError: false };
      }
      try {
        await driver.runUntilSettled(child.id, run.signal, child.claim);
      } catch (error) {
        if (run.signal.reason instanceof InterruptRequested) await interruptChild(ctx, child.id);
        throw error;
      }
      return childOutcome(child.id, await driver.readLog(child.id));
    },
  });

  const tools = multiagent.roster.map(delegate);
  if (multiagent.roster.some((e) => e.mode === "background")) {
    tools.push({
      name: COLLECT_TOOL,
      description:
        "Waits for a subagent started in background by a delegate_to_* tool and returns its final answer. " +
        'Input: {"sessionId": the childSessionId it returned}.',
      inputSchema: COLLECT_SCHEMA,
      origin: "delegation",
      readOnly: true,
      async execute(raw: unknown, run: ToolRunContext): Promise<ToolResult> {
        const sessionId = (raw as { sessionId?: unknown }).sessionId;
        if (typeof sessionId !== "string" || sessionId.length === 0) {
          return { content: "Input needs `sessionId`: the childSessionId of a background delegation", isError: true };
        }
        if (!(await isChildSession(ctx.db.pool, sessionId, run.session.id))) {
          return { content: `Session ${sessionId} is not a delegation of this session`, isError: true };
        }
        await driver.runUntilSettled(sessionId, run.signal);
        return childOutcome(sessionId, await driver.readLog(sessionId));
      },
    });
  }
  return tools;
}

/** The coordinator was interrupted while waiting: its foreground child stops too (recorded in the child's log). */
async function interruptChild(ctx: AppContext, childId: string): Promise<void> {
  try {
    await appendEvents(ctx.db.pool, childId, [{ type: EV.userInterrupt, payload: {} }]);
    await requestTurn(ctx.db.pool, childId);
  } catch (error) {
    ctx.logger.warn({ err: error, sessionId: childId }, "could not interrupt the subagent session");
  }
}
