import type { AppContext } from "../../context.js";
import type { JobKind, NoPayload } from "../../jobs/index.js";
import { providerSettingsOf } from "../../models/index.js";
import { type LocalTurns, subscribeSessionEvents, watchDeltaFollowers } from "../../sessions/index.js";
import { createBrowserTooling } from "../browser/index.js";
import { delegationTools } from "../delegation/delegation-tools.js";
import { AgentConfigCache, LogCache } from "../loop/caches.js";
import { sessionWebhooks } from "../loop/session-webhooks.js";
import { CodeExecution, codeTooling, readSandboxSettings } from "../sandbox/index.js";
import { resolveSessionTools } from "../tools/resolve-session-tools.js";
import { localTurns } from "./local-turns.js";
import { sessionTurnKind } from "./session-turn-kind.js";
import { readTurnSettings } from "./settings.js";
import { type InlineRunner, TurnDriver } from "./turn-driver.js";

export type { InlineRunner } from "./turn-driver.js";

/**
 * The agent runtime's job kind (`session.turn`), wired with its dependencies: providers, caches, the tools, and the
 * delegation driver, which runs child sessions through `runner` (the process's job runner, known once it exists).
 */
export interface SessionTurns {
  kind: JobKind<NoPayload>;
  /** Turn slots for ingestion in this process (connected to the composition root's `LocalTurnsLink`), once the runner exists. */
  localTurns: LocalTurns;
  /** Closes what turns keep open across calls (browsers), once the runner has stopped. */
  stop(): Promise<void>;
}

export function sessionTurns(ctx: AppContext, runner: () => InlineRunner): SessionTurns {
  const settings = readTurnSettings(ctx.config.env);
  const driver = new TurnDriver(ctx, settings.leaseMs, runner);
  const browser = createBrowserTooling(ctx);
  const codeExecution = new CodeExecution(ctx, readSandboxSettings(ctx.config.env));
  codeExecution.startSweeping();
  const codeTools = codeTooling(codeExecution);
  const logCache = new LogCache(settings.logCacheEvents);
  watchDeltaFollowers(ctx);
  const kind = sessionTurnKind(
    ctx,
    {
      ctx,
      providerSettings: providerSettingsOf(ctx.config.env),
      maxModelCalls: settings.maxModelCalls,
      mcpConnectTimeoutMs: settings.mcpConnectTimeoutMs,
      mcpCallTimeoutMs: settings.mcpCallTimeoutMs,
      resolveTools: (input) => resolveSessionTools({ ...input, browser, codeExecution: codeTools }),
      endTurn: async (sessionId) => {
        await Promise.all([browser.contexts.close(sessionId), codeExecution.endTurn(sessionId)]);
      },
      delegationTools: (input) => delegationTools({ ...input, ctx, driver }),
      subscribe: (sessionId, onSeq) => subscribeSessionEvents(ctx, sessionId, onSeq),
      onIdle: sessionWebhooks(ctx),
      logCache,
      agentCache: new AgentConfigCache(1_000),
    },
    settings,
  );
  return {
    kind,
    localTurns: localTurns((kindName) => runner().reserve(kindName), logCache),
    async stop() {
      codeExecution.stop();
      await browser.contexts.stop();
    },
  };
}
