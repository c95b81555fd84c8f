import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import type { ProviderSettings } from "../../models/index.js";
import type { IdleHook, SessionLoopSettings } from "../../sessions/index.js";
import type { RuntimeTool, SessionRuntimeInfo } from "../tools/types.js";
import type { AgentConfigCache, LogCache } from "./caches.js";

/** Everything a pass needs besides the session: the process context, settings, caches and the tool providers. */
export interface LoopDeps {
  ctx: AppContext;
  providerSettings: ProviderSettings;
  /** Default cap on model calls per turn (sessions may set their own). */
  maxModelCalls: number;
  mcpConnectTimeoutMs: number;
  mcpCallTimeoutMs: number;
  /** Calls `onSeq` with the session's newest `seq` whenever its log grows (and on listener reconnects). */
  subscribe(sessionId: string, onSeq: (seq: number) => void): () => void;
  /** Runs in the commit that leaves a session idle (its webhook events). */
  onIdle?: IdleHook;
  /** Releases what a session held for its turn (its browser context) before the commit that ends the turn. */
  endTurn?(sessionId: string): Promise<void>;
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
