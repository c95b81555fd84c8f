import type { AgentConfig, PendingAction, StopReason } from "@agent-platform/contract";
import type pg from "pg";
import { loadAgentVersion } from "../../agents/index.js";
import { recordUsages, type UsageAmount } from "../../budgets/index.js";
import type { AppContext } from "../../context.js";
import { type ModelSpec, parseModelSpec } from "../../models/index.js";
import type { LoopSessionRow } from "../../sessions/index.js";
import {
  type CommitPlan,
  type CommittedUsage,
  commitFenced,
  type Lease,
  type NewEvent,
  readEvents,
  recentEvents,
  type SessionLoopSettings,
  type StatusChange,
  type StoredEvent,
} from "../../sessions/index.js";
import { type SessionRuntimeInfo, sessionRuntimeInfo, type ToolResult } from "../tools/types.js";
import type { LoopDeps } from "./deps.js";
import { errorEvent, idleEvent, runningPlan } from "./events.js";
import { TurnDecisions } from "./guardrail-webhooks.js";
import type { InterruptWatch } from "./interrupt-watch.js";
import type { LogState, ToolUseState } from "./log-state.js";
import { loopMetrics } from "./metrics.js";
import { PassTools } from "./pass-tools.js";
import type { Toolset } from "./toolset.js";

/** Log entries read per query. */
export const LOG_PAGE = 5_000;

/** The head change that ends a turn. */
export function idleStatus(stopReason: StopReason, pending: PendingAction[] = []): StatusChange {
  return { status: "idle", stopReason, pendingActions: pending };
}

/**
 * What one pass over a claimed session knows and does between steps: the log (a cached prefix completed by `refresh`),
 * the fenced writes, and the agent version, loaded once per pass when first needed (its tools: `PassTools`).
 */
export class SessionPass {
  readonly ctx: AppContext;
  readonly pool: pg.Pool;
  readonly settings: SessionLoopSettings;
  readonly info: SessionRuntimeInfo;
  /** The log so far (entries never change, so a cached prefix stays valid). */
  readonly log: StoredEvent[];
  /** The session head's pending actions as last written. */
  headPending: PendingAction[];
  /**
   * MCP servers that could not be listed are reported once per pass, with the first model response lacking them (the
   * model step says it did; the loop records it here).
   */
  mcpFailuresReported = false;
  /** A commit released the session's job: the session is settled and no longer this pass's to run. */
  released = false;
  /**
   * The session's `lastSeq` as far as the pass knows (the log it read, and what it wrote since): its commits are one
   * statement while nothing else was appended in between.
   */
  private headSeq = 0;
  /** Guardrail decisions of the turn, published as webhook events when it ends. */
  private readonly decisions = new TurnDecisions();
  /** A reservation given back is recorded while the loop goes on, and awaited before the next budget check. */
  recording: Promise<void> = Promise.resolve();
  private agent: AgentConfig | undefined;
  /** The agent version's tools and MCP connections, and the running of tool uses. */
  private readonly toolRunner: PassTools;

  constructor(
    readonly deps: LoopDeps,
    readonly lease: Lease,
    session: LoopSessionRow,
    settings: SessionLoopSettings,
    readonly interrupts: InterruptWatch,
    /** The log as loaded with the session: the cached prefix and the entries read after it. */
    log: StoredEvent[],
    /** `log` is the whole log as of the load: the first `refresh` has nothing to read. */
    private upToDate: boolean,
  ) {
    this.ctx = deps.ctx;
    this.pool = deps.ctx.db.pool;
    this.settings = settings;
    this.headPending = session.pendingActions;
    this.info = sessionRuntimeInfo(session);
    this.log = log;
    this.toolRunner = new PassTools(deps, this.info, settings, () => this.loadAgent());
  }

  /** Reads the entries after those the pass has. */
  async refresh(): Promise<void> {
    this.headSeq = Math.max(this.headSeq, await this.readNewEntries());
    this.interrupts.known(this.headSeq);
  }

  /** Completes the log; returns the last `seq` in it. */
  private async readNewEntries(): Promise<number> {
    if (this.upToDate) {
      this.upToDate = false;
    } else {
      for (;;) {
        const after = this.log.length > 0 ? this.log[this.log.length - 1]!.seq : 0;
        const page = await readEvents(this.pool, this.info.id, after, LOG_PAGE);
        this.log.push(...page);
        if (page.length < LOG_PAGE) break;
      }
    }
    return this.log.length > 0 ? this.log[this.log.length - 1]!.seq : 0;
  }

  /**
   * A fenced commit planned on the session's current head `lastSeq`. `mayEndTurn`: the plan may end the turn, so what
   * the turn held (its browser context, whose recording becomes an artifact) is released first.
   */
  async commit(plan: (headSeq: number) => CommitPlan, options: { mayEndTurn?: boolean } = {}): Promise<StoredEvent[]> {
    if (options.mayEndTurn) await this.deps.endTurn?.(this.info.id);
    // The plan may be made twice (on the head the pass expects, then on the real one when it moved): the last one made
    // is the one committed.
    let committed: { head: number; plan: CommitPlan } | undefined;
    const commit = commitFenced(
      this.pool,
      this.lease,
      (head) => {
        const made = plan(head);
        // A commit that leaves the session idle also releases its job when nothing was asked of it since the claim.
        const release = made.status?.status === "idle" && this.lease.generation !== undefined;
        const p = release ? { ...made, releaseGeneration: this.lease.generation } : made;
        committed = { head, plan: p };
        // Known before the commit, so the notification of our own entries does not trigger an interrupt check (a
        // plan made on an older head marks less than the one made on the real head: `known` only grows).
        this.interrupts.known(head + p.events.length);
        return p;
      },
      this.decisions.hook(this.ctx, this.log, this.deps.onIdle),
      { lastSeq: this.headSeq, workspaceId: this.info.workspaceId },
    );
    // Followers of the session in this process send what the commit stored without reading it back.
    const stored = await recentEvents(this.ctx).committing(
      this.info.id,
      commit.then((c) => c.stored),
    );
    if ((await commit).released) this.released = true;
    this.decisions.track(stored);
    const { head, plan: made } = committed!;
    this.headSeq = head + made.events.length;
    if (made.pendingActionsOnly) this.headPending = made.pendingActionsOnly;
    if (made.status) this.headPending = made.status.pendingActions;
    if (made.status?.status === "idle") loopMetrics.turnsEnded++;
    return stored;
  }

  append(events: NewEvent[], status?: StatusChange, usage?: CommittedUsage): Promise<StoredEvent[]> {
    const endsTurn = status?.status === "idle" && status.stopReason !== "requires_action";
    return this.commit(() => ({ events, ...(status ? { status } : {}), ...(usage ? { usage } : {}) }), {
      mayEndTurn: endsTurn,
    });
  }

  /** Ends the turn with `session.error`. */
  failTurn(code: string, message: string, before: NewEvent[] = []): Promise<StoredEvent[]> {
    return this.append([...before, errorEvent(code, message), idleEvent("error")], idleStatus("error"));
  }

  /** Opens a turn (`session.status_running`) unless one is open; its model calls are counted from zero. */
  async openTurn(state: LogState): Promise<void> {
    if (state.turnOpen) return;
    state.modelCallsInTurn = 0;
    const analysed = state.lastSeq;
    await this.commit(() => runningPlan(this.settings));
    // Nothing arrived since the analysis: the state still covers the whole log now that this entry is in.
    if (this.headSeq === analysed + 1) state.lastSeq = this.headSeq;
  }

  async loadAgent(): Promise<AgentConfig> {
    if (this.agent) return this.agent;
    const { agentCache } = this.deps;
    const { projectId, agentId, agentVersion } = this.info;
    this.agent = agentCache.get(agentId, agentVersion);
    if (!this.agent) {
      this.agent = (await loadAgentVersion(this.ctx, projectId, agentId, agentVersion)).config;
      agentCache.set(agentId, agentVersion, this.agent);
    }
    return this.agent;
  }

  /** The model of the pass: the session's override (roster entry `model`) or the agent version's. */
  modelSpec(config: AgentConfig): ModelSpec | { code: string; message: string } {
    const parsed = parseModelSpec(this.settings.model ?? config.model);
    return parsed.ok ? parsed.spec : parsed.error;
  }

  tools(stepSignal: AbortSignal): Promise<Toolset> {
    return this.toolRunner.tools(stepSignal);
  }

  executeToolUse(use: ToolUseState, stepSignal: AbortSignal): Promise<ToolResult> {
    return this.toolRunner.executeToolUse(use, stepSignal);
  }

  /**
   * The usage of a model call, counted in the commit of its response. `reserved`: the tokens already counted by the
   * call's reservation (with its model call), of which only the difference is counted.
   */
  modelUsage(tokens: number, reserved: number | null): CommittedUsage {
    const usages: UsageAmount[] =
      reserved === null
        ? [
            { meter: "tokens", amount: tokens },
            { meter: "model_calls", amount: 1 },
          ]
        : [{ meter: "tokens", amount: tokens - reserved }];
    return { workspaceId: this.info.workspaceId, agentId: this.info.agentId, usages };
  }

  /** Gives back a reservation (the amounts it counted) whose call failed: nothing was used. */
  releaseModelReservation(reserved: readonly UsageAmount[]): void {
    const usages = reserved.map((u) => ({ meter: u.meter, amount: -u.amount }));
    this.recordUsage({ workspaceId: this.info.workspaceId, agentId: this.info.agentId, usages });
  }

  /** Records usage outside a commit (awaited before the next budget check). */
  recordUsage(usage: CommittedUsage): void {
    this.recording = recordUsages(this.pool, usage).then(
      () => {},
      (error) => this.ctx.logger.error({ err: error, sessionId: this.info.id }, "recording usage failed"),
    );
  }

  /** Ends the pass: the log goes back to the cache, pending usage is written, MCP connections close. */
  async close(): Promise<void> {
    this.interrupts.close();
    this.deps.logCache.put(this.info.id, this.log);
    await Promise.all([this.recording, this.toolRunner.close()]);
  }
}
