import type { BackgroundHandle } from "../background.js";
import type { AppContext } from "../context.js";
import { delegationTools } from "../runtime/delegation/delegation-tools.js";
import { AgentConfigCache, LogCache } from "../runtime/loop/caches.js";
import { readProviderSettings } from "../runtime/models/index.js";
import { resolveSessionTools } from "../runtime/tools/resolve-session-tools.js";
import { SessionWorker } from "./session-worker.js";
import { readWorkerSettings } from "./settings.js";

/** The session worker of the `worker` and `all` roles (registered in background.ts). */
export async function startSessionWorker(ctx: AppContext): Promise<BackgroundHandle> {
  const settings = readWorkerSettings(ctx.config.env);
  let worker: SessionWorker | undefined;
  worker = new SessionWorker(ctx, settings, {
    ctx,
    providerSettings: readProviderSettings(ctx.config.env),
    maxModelCalls: settings.maxModelCalls,
    mcpConnectTimeoutMs: settings.mcpConnectTimeoutMs,
    mcpCallTimeoutMs: settings.mcpCallTimeoutMs,
    resolveTools: resolveSessionTools,
    delegationTools: (input) => delegationTools({ ...input, ctx, driver: worker! }),
    subscribe: (sessionId, onSeq) => worker!.subscribe(sessionId, onSeq),
    logCache: new LogCache(settings.logCacheEvents),
    agentCache: new AgentConfigCache(1_000),
  });
  await worker.start();
  ctx.logger.info({ concurrency: settings.concurrency, leaseMs: settings.leaseMs }, "session worker started");
  return { stop: () => worker!.stop() };
}
