import type { AgentConfig, PendingAction } from "@agent-platform/contract";
import { loadAgentVersion } from "../../agents/load-agent-version.js";
import { loadMcpHeaders } from "../../agents/mcp-credentials.js";
import { checkBudgets, recordUsage } from "../../budgets/usage.js";
import type { AppContext } from "../../context.js";
import { AppError } from "../../http/app-error.js";
import type { NewEvent, StoredEvent } from "../../sessions/event-log.js";
import { readEvents } from "../../sessions/event-log.js";
import { type McpConnectionSet, openMcpConnections } from "../mcp/index.js";
import {
  callModel,
  formatModelSpec,
  ModelCallError,
  type ModelSpec,
  type ProviderSettings,
  parseModelSpec,
} from "../models/index.js";
import type { RuntimeTool, SessionRuntimeInfo, ToolResult } from "../tools/types.js";
import type { AgentConfigCache, LogCache } from "./caches.js";
import {
  EV,
  errorEvent,
  idleEvent,
  mcpServerUnavailableEvent,
  runningEvent,
  type StopReason,
  textContent,
  toolResultEvent,
} from "./events.js";
import { analyzeLog, buildConversation, type LogState, type ToolUseState } from "./log-state.js";
import { DEFAULT_LOOP_SETTINGS, type SessionLoopSettings } from "./loop-settings.js";
import { loopMetrics } from "./metrics.js";
import {
  type CommitPlan,
  commitFenced,
  type Lease,
  LeaseLost,
  SessionGone,
  type StatusChange,
} from "./session-writer.js";
import { assembleToolset, customTools, mcpTools, type Toolset } from "./toolset.js";

/** Everything a pass needs besides the session: the process context and the tool providers. */
export interface LoopDeps {
  ctx: AppContext;
  providerSettings: ProviderSettings;
  /** Default cap on model calls per turn (sessions may set their own). */
  maxModelCalls: number;
  mcpConnectTimeoutMs: number;
  mcpCallTimeoutMs: number;
  /** Calls `onSeq` with the session's newest `seq` whenever its log grows (and on listener reconnects). */
  subscribe(sessionId: string, onSeq: (seq: number) => void): () => void;
  logCache: LogCache;
  agentCache: AgentConfigCache;
  /** Built-in and serverless tools of the session. */
  resolveTools(input: { ctx: AppContext; session: SessionRuntimeInfo; agent: AgentConfig }): Promise<RuntimeTool[]>;
  /** `delegate_to_<role>` (and `collect_delegation`) for a coordinator. */
  delegationTools(input: {
    session: SessionRuntimeInfo;
    agent: AgentConfig;
    settings: SessionLoopSettings;
  }): RuntimeTool[];
}

/** A `user.interrupt` reached the session while a step ran: the step stops, the log decides what follows. */
export class InterruptRequested extends Error {
  override readonly name = "InterruptRequested";
  constructor() {
    super("Interrupted by a user.interrupt event");
  }
}

const MAX_ITERATIONS = 10_000;
const LOG_PAGE = 5_000;
const DEFAULT_DENY_MESSAGE = "The user denied this tool call.";
const INTERRUPTED_RESULT = "Not completed: the user interrupted the turn.";

interface SessionRow extends SessionRuntimeInfo {
  status: string;
  stopReason: string | null;
  pendingActions: PendingAction[];
  settings: SessionLoopSettings | null;
}

/** The session and its loop settings, in one query. */
async function loadSession(ctx: AppContext, sessionId: string): Promise<SessionRow | undefined> {
  const { rows } = await ctx.db.pool.query<SessionRow>(
    `SELECT s."id", s."projectId", s."workspaceId", s."agentId", s."agentVersion", s."environmentId",
       COALESCE(s."vaultIds", '{}') AS "vaultIds", s."resources", s."status", s."stopReason", s."pendingActions",
       CASE WHEN l."sessionId" IS NULL THEN NULL ELSE json_build_object('operator', l."operator",
         'maxModelCalls', l."maxModelCalls", 'readonly', l."readonly", 'model', l."model",
         'delegatedBy', l."delegatedBy", 'delegationRoot', l."delegationRoot") END AS "settings"
     FROM sessions s LEFT JOIN session_loop_settings l ON l."sessionId" = s."id"
     WHERE s."id" = $1`,
    [sessionId],
  );
  return rows[0];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves with `promise`, or rejects with the signal's reason as soon as it aborts (the promise is abandoned). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function samePending(a: PendingAction[], b: PendingAction[]): boolean {
  return a.length === b.length && a.every((x, i) => x.toolUseId === b[i]?.toolUseId && x.kind === b[i]?.kind);
}

/**
 * One pass of the durable loop over a claimed session: rebuild the state from the log, do the next step, append its
 * outcome, repeat until the session waits (idle) or has nothing to do. Every step is idempotent with respect to the
 * log, so a pass that dies anywhere is resumed by the next claim with no lost and no duplicated events:
 * - a model call whose response was not appended is simply made again;
 * - a model response is appended (message, tool uses, `agent.usage`) in one statement before any tool runs;
 * - a tool use without a result is run (again) on resume: tools are at-least-once.
 * `signal` aborts the whole pass (lease lost, shutdown): the pass throws its reason and writes nothing more.
 */
export async function runSessionPass(deps: LoopDeps, lease: Lease, signal: AbortSignal): Promise<void> {
  const started = performance.now();
  try {
    await runPass(deps, lease, signal);
  } finally {
    loopMetrics.passMs += performance.now() - started;
  }
}

async function runPass(deps: LoopDeps, lease: Lease, signal: AbortSignal): Promise<void> {
  const { ctx } = deps;
  const pool = ctx.db.pool;
  const session = await loadSession(ctx, lease.sessionId);
  if (!session) {
    deps.logCache.drop(lease.sessionId);
    return;
  }
  const settings = session.settings ?? DEFAULT_LOOP_SETTINGS;
  // The cached prefix of the log (entries never change), completed by `refresh`.
  const log: StoredEvent[] = deps.logCache.take(session.id);
  let headPending = session.pendingActions;

  // Interrupts: the session's notifications are watched for the whole pass; a `user.interrupt` newer than what the
  // loop has analysed aborts the current step.
  let analysedSeq = 0;
  let knownSeq = 0;
  let interrupt = new AbortController();
  let checking: Promise<void> | undefined;
  let recheck = false;
  const checkInterrupts = async (): Promise<void> => {
    do {
      recheck = false;
      const { rows } = await pool.query<{ seq: number }>(
        `SELECT "seq" FROM session_events WHERE "sessionId" = $1 AND "seq" > $2 AND "type" = $3 LIMIT 1`,
        [session.id, analysedSeq, EV.userInterrupt],
      );
      // Only an interrupt the loop has not analysed yet stops the current step.
      if (rows[0] && rows[0].seq > analysedSeq && !interrupt.signal.aborted) interrupt.abort(new InterruptRequested());
    } while (recheck);
  };
  const unsubscribe = deps.subscribe(session.id, (seq) => {
    if (seq <= knownSeq) return;
    if (checking) {
      recheck = true;
      return;
    }
    checking = checkInterrupts()
      .catch((error) => ctx.logger.warn({ err: error, sessionId: session.id }, "interrupt check failed"))
      .finally(() => {
        checking = undefined;
      });
  });

  let agent: AgentConfig | undefined;
  let toolset: Toolset | undefined;
  // MCP servers that could not be listed are reported once per pass, with the first model response that lacks them.
  let mcpFailuresReported = false;
  let mcp: McpConnectionSet | undefined;

  const refresh = async () => {
    for (;;) {
      const after = log.length > 0 ? log[log.length - 1]!.seq : 0;
      const page = await readEvents(pool, session.id, after, LOG_PAGE);
      log.push(...page);
      if (page.length < LOG_PAGE) break;
    }
    knownSeq = Math.max(knownSeq, log.length > 0 ? log[log.length - 1]!.seq : 0);
  };

  const commit = async (plan: (headSeq: number) => CommitPlan): Promise<StoredEvent[]> => {
    let status: StatusChange | undefined;
    const stored = await commitFenced(pool, lease, (head) => {
      const p = plan(head);
      status = p.status;
      if (p.pendingActionsOnly) headPending = p.pendingActionsOnly;
      // Set before the commit, so the notification of our own entries does not trigger an interrupt check.
      knownSeq = Math.max(knownSeq, head + p.events.length);
      return p;
    });
    if (status) headPending = status.pendingActions;
    if (status?.status === "idle") loopMetrics.turnsEnded++;
    return stored;
  };
  const append = (events: NewEvent[], status?: StatusChange) =>
    commit(() => ({ events, ...(status ? { status } : {}) }));
  const idle = (stopReason: StopReason, pending: PendingAction[] = []): StatusChange => ({
    status: "idle",
    stopReason,
    pendingActions: pending,
  });
  const failTurn = (code: string, message: string, before: NewEvent[] = []) =>
    append([...before, errorEvent(code, message), idleEvent("error")], idle("error"));

  const runtimeInfo: SessionRuntimeInfo = {
    id: session.id,
    projectId: session.projectId,
    workspaceId: session.workspaceId,
    agentId: session.agentId,
    agentVersion: session.agentVersion,
    environmentId: session.environmentId,
    vaultIds: session.vaultIds,
    resources: session.resources,
  };

  const loadAgent = async (): Promise<AgentConfig> => {
    if (agent) return agent;
    agent = deps.agentCache.get(session.agentId, session.agentVersion);
    if (!agent) {
      agent = (await loadAgentVersion(ctx, session.projectId, session.agentId, session.agentVersion)).config;
      deps.agentCache.set(session.agentId, session.agentVersion, agent);
    }
    return agent;
  };
  const connections = (config: AgentConfig): McpConnectionSet | undefined => {
    if (config.mcpServers.length === 0) return undefined;
    mcp ??= openMcpConnections(
      config.mcpServers.map((s) => ({ name: s.name, url: s.url })),
      (serverName) => loadMcpHeaders(ctx, session.agentId, serverName),
      { connectTimeoutMs: deps.mcpConnectTimeoutMs, callTimeoutMs: deps.mcpCallTimeoutMs, fetch: ctx.outbound.fetch },
    );
    return mcp;
  };
  const loadToolset = async (stepSignal: AbortSignal): Promise<Toolset> => {
    if (toolset) return toolset;
    const config = await loadAgent();
    const conn = connections(config);
    const [provided, listed] = await Promise.all([
      deps.resolveTools({ ctx, session: runtimeInfo, agent: config }),
      conn ? mcpTools(conn, stepSignal) : Promise.resolve({ tools: [], failures: [] }),
    ]);
    for (const failure of listed.failures) {
      ctx.logger.warn(
        { sessionId: session.id, serverName: failure.serverName, reason: failure.message },
        "MCP tools unavailable",
      );
    }
    // A listing cut short by an interrupt is not kept: the next step lists again.
    if (stepSignal.aborted) throw stepSignal.reason;
    toolset = assembleToolset(
      config,
      [
        provided,
        listed.tools,
        customTools(config),
        deps.delegationTools({ session: runtimeInfo, agent: config, settings }),
      ],
      { readonly: settings.readonly, mcpFailures: listed.failures },
    );
    return toolset;
  };

  const executeToolUse = async (use: ToolUseState, stepSignal: AbortSignal): Promise<ToolResult> => {
    const config = await loadAgent();
    if (use.kind === "mcp") {
      const conn = connections(config);
      if (!conn || !config.mcpServers.some((s) => s.name === use.serverName)) {
        return { content: `MCP server "${use.serverName}" is not configured on this agent version`, isError: true };
      }
      return raceAbort(conn.callTool(use.name, use.input, stepSignal), stepSignal);
    }
    const tools = await loadToolset(stepSignal);
    const tool = tools.tools.get(use.name);
    if (!tool?.execute) {
      const known = [...tools.tools.keys()].filter((n) => tools.tools.get(n)?.execute);
      return {
        content: `Unknown tool "${use.name}". Available tools: ${known.length > 0 ? known.join(", ") : "none"}`,
        isError: true,
      };
    }
    if (!isPlainObject(use.input)) return { content: `Input of ${use.name} must be a JSON object`, isError: true };
    try {
      return await raceAbort(
        tool.execute(use.input, { ctx, session: runtimeInfo, agent: config, signal: stepSignal, toolUseId: use.id }),
        stepSignal,
      );
    } catch (error) {
      if (stepSignal.aborted) throw stepSignal.reason;
      ctx.logger.error({ err: error, sessionId: session.id, tool: use.name }, "tool threw");
      return {
        content: `${use.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        isError: true,
      };
    }
  };

  const modelSpec = (config: AgentConfig): ModelSpec | { code: string; message: string } => {
    const parsed = parseModelSpec(settings.model ?? config.model);
    return parsed.ok ? parsed.spec : parsed.error;
  };

  // Usage of the last model call is recorded while the loop goes on, and awaited before the next budget check.
  let recording: Promise<void> = Promise.resolve();

  /**
   * The model step: call, then append the response and its usage in one statement. Returns true when that statement
   * also ended the turn (a final answer with nothing new in the log meanwhile).
   */
  const modelStep = async (
    state: LogState,
    spec: ModelSpec,
    stepSignal: AbortSignal,
    running: Promise<void>,
  ): Promise<boolean> => {
    const config = await loadAgent();
    const tools = await loadToolset(stepSignal);
    const messages = buildConversation(log, state.steps);
    // The model call overlaps the commit of `session.status_running`; the response is appended after it. Both are
    // waited for, whatever happens, so that nothing of this step is still being written when the loop moves on.
    const cancel = new AbortController();
    running.catch(() => cancel.abort());
    const started = performance.now();
    const call = callModel({
      spec,
      settings: deps.providerSettings,
      ...(config.system ? { system: config.system } : {}),
      messages,
      tools: tools.definitions,
      signal: AbortSignal.any([stepSignal, cancel.signal]),
    }).finally(() => {
      loopMetrics.modelCalls++;
      loopMetrics.modelCallMs += performance.now() - started;
    });
    const [called, opened] = await Promise.allSettled([call, running]);
    if (opened.status === "rejected") throw opened.reason;
    if (called.status === "rejected") throw called.reason;
    const result = called.value;
    // What the call had in its context (`ensureRunning` counts its own entry when nothing came in between).
    const contextSeq = state.lastSeq;
    const events: NewEvent[] = [];
    if (!mcpFailuresReported) {
      events.push(...tools.mcpFailures.map(mcpServerUnavailableEvent));
      mcpFailuresReported = true;
    }
    if (result.text.length > 0) events.push({ type: EV.agentMessage, payload: { content: textContent(result.text) } });
    for (const call of result.toolCalls) events.push(toolUseEvent(tools, call.name, call.input));
    events.push({
      type: EV.usage,
      payload: {
        model: formatModelSpec(spec),
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        contextSeq,
      },
    });
    // A final answer with nothing new in the log since the call started ends the turn in the same transaction.
    let ended = false;
    await commit((head) => {
      ended = result.toolCalls.length === 0 && head === contextSeq;
      return ended ? { events: [...events, idleEvent("end_turn")], status: idle("end_turn") } : { events };
    });
    const tokens = result.usage.inputTokens + result.usage.outputTokens;
    const owner = { workspaceId: session.workspaceId, agentId: session.agentId };
    recording = Promise.all([
      recordUsage(pool, { ...owner, meter: "tokens", amount: tokens }),
      recordUsage(pool, { ...owner, meter: "model_calls", amount: 1 }),
    ]).then(
      () => {},
      (error) => ctx.logger.error({ err: error, sessionId: session.id }, "recording usage failed"),
    );
    return ended;
  };

  try {
    for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
      if (signal.aborted) throw signal.reason;
      await refresh();
      const state = analyzeLog(log);
      analysedSeq = state.lastSeq;
      if (interrupt.signal.aborted) interrupt = new AbortController();
      const stepSignal = AbortSignal.any([signal, interrupt.signal]);
      const next = state.next;

      const ensureRunning = async () => {
        if (state.turnOpen) return;
        // A new turn: its model calls are counted from zero.
        state.modelCallsInTurn = 0;
        await commit((head) => {
          // Nothing arrived since the analysis: the state still covers the whole log once this entry is in.
          if (head === state.lastSeq) state.lastSeq = head + 1;
          return { events: [runningEvent()], status: { status: "running", stopReason: null, pendingActions: [] } };
        });
      };

      try {
        switch (next.kind) {
          case "none":
            return;

          case "finish": {
            if (!state.turnOpen) return;
            // Ends the turn only if nothing arrived since the analysis (else: look again).
            const written = await commit((head) =>
              head === state.lastSeq ? { events: [idleEvent("end_turn")], status: idle("end_turn") } : { events: [] },
            );
            if (written.length > 0) return;
            break;
          }

          case "interrupt":
            await append(
              [...next.unresolved.map((u) => toolResultEvent(u, INTERRUPTED_RESULT, true)), idleEvent("interrupted")],
              idle("interrupted"),
            );
            break;

          case "await_actions":
            if (!settings.operator) {
              const missing = next.toolUses.map((u) =>
                u.kind === "custom"
                  ? `custom tool "${u.name}" needs a client to run it (user.custom_tool_result)`
                  : `tool "${u.name}" requires confirmation (always_ask) and nobody can confirm it`,
              );
              const message = `This session has no operator: ${missing.join("; ")}`;
              await ensureRunning();
              await failTurn(
                "session.operator_required",
                message,
                next.toolUses.map((u) => toolResultEvent(u, `Not run: ${message}`, true)),
              );
              return;
            }
            if (state.turnOpen) {
              await append([idleEvent("requires_action", next.pending)], idle("requires_action", next.pending));
            } else if (!samePending(headPending, next.pending)) {
              await commit(() => ({ events: [], pendingActionsOnly: next.pending }));
            }
            return;

          case "run_tools":
            await ensureRunning();
            for (const use of next.toolUses) {
              if (stepSignal.aborted) break;
              let result: ToolResult;
              if (use.requiresConfirmation && use.confirmation && !use.confirmation.allow) {
                result = { content: use.confirmation.denyMessage ?? DEFAULT_DENY_MESSAGE, isError: true };
              } else {
                result = await executeToolUse(use, stepSignal);
              }
              if (stepSignal.aborted) break;
              await append([toolResultEvent(use, result.content, result.isError)]);
            }
            break;

          case "call_model": {
            // Opening the turn is committed while the budgets are checked and the model is called.
            const running = ensureRunning();
            running.catch(() => {});
            const cap = settings.maxModelCalls ?? deps.maxModelCalls;
            if (state.modelCallsInTurn >= cap) {
              await running;
              await append([idleEvent("max_turns")], idle("max_turns"));
              return;
            }
            let config: AgentConfig;
            try {
              config = await loadAgent();
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              await running;
              await failTurn(error.code, error.message);
              return;
            }
            const spec = modelSpec(config);
            if ("code" in spec) {
              await running;
              await failTurn(spec.code, spec.message);
              return;
            }
            await recording;
            const exceeded = await checkBudgets(pool, {
              workspaceId: session.workspaceId,
              agentId: session.agentId,
              meters: ["tokens", "model_calls"],
            });
            if (exceeded) {
              const owner = exceeded.scope === "workspace" ? "The workspace" : "This agent";
              await running;
              await failTurn(
                "budget.exceeded",
                `${owner} has used ${exceeded.used} of its ${exceeded.limit} ${exceeded.meter} budget for the period`,
              );
              return;
            }
            try {
              if (await modelStep(state, spec, stepSignal, running)) return;
            } catch (error) {
              if (!(error instanceof ModelCallError)) throw error;
              await running;
              await failTurn(error.code, error.message);
              return;
            }
            break;
          }
        }
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof LeaseLost || error instanceof SessionGone) throw error;
        // The step was stopped by an interrupt: the next iteration finds it in the log and closes the turn.
        if (interrupt.signal.aborted) continue;
        throw error;
      }
    }
    throw new Error(`Session ${session.id}: the loop did not settle after ${MAX_ITERATIONS} steps`);
  } finally {
    unsubscribe();
    deps.logCache.put(session.id, log);
    await Promise.all([recording, mcp?.close()]);
  }
}

/** The tool-use entry for a call of the model: MCP and custom tools have their own types; unknown names stay plain. */
function toolUseEvent(tools: Toolset, name: string, input: unknown): NewEvent {
  const tool = tools.tools.get(name);
  const confirm =
    tool && tool.origin !== "custom" && tool.policy === "always_ask" ? { requiresConfirmation: true } : {};
  if (tool?.origin === "mcp") {
    return { type: EV.mcpToolUse, payload: { serverName: tool.serverName, name: tool.toolName, input, ...confirm } };
  }
  if (tool?.origin === "custom") return { type: EV.customToolUse, payload: { name, input } };
  return { type: EV.toolUse, payload: { name, input, ...confirm } };
}
