import { createHmac } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { applyMigrations, connectDatabase, type EmbeddedDatabase, startEmbeddedPostgres } from "@agent-platform/db";
import { createApp } from "./app.js";
import { ApiKeyCache } from "./auth/api-key-cache.js";
import { startBackground } from "./background.js";
import { type BootstrapResult, bootstrapOnce } from "./bootstrap.js";
import type { Config } from "./config.js";
import type { AppContext } from "./context.js";
import { SecretBox } from "./crypto/secret-box.js";
import { UrlSigner } from "./crypto/url-signer.js";
import { createAppServer } from "./http/app-server.js";
import { askRunnersToSweep } from "./jobs/index.js";
import { drainNotices } from "./lib/after-commit.js";
import { integerSetting } from "./lib/env.js";
import type { Stoppable } from "./lib/lifecycle.js";
import { createOutbound } from "./lib/outbound/index.js";
import { LISTENER_APPLICATION_NAME, PgListener } from "./lib/pg-listener.js";
import { phaseTimer } from "./lib/phase-timer.js";
import { disableNamedStatements } from "./lib/prepared.js";
import { Readiness } from "./lib/readiness.js";
import { activeTraceIds, measure } from "./lib/telemetry/instruments.js";
import { observePool, startTelemetry } from "./lib/telemetry/telemetry.js";
import { whenDatabaseAnswers } from "./lib/wait-for-database.js";
import { createLogger } from "./logger.js";
import { resolveSecretsKey } from "./secrets-key.js";
import { announceProcessStart, localTurnsLink } from "./sessions/index.js";

/** `DATABASE_PREPARED_STATEMENTS`: `on` (default) or `off`. */
function preparedStatementsOff(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  if (!v || v === "on" || v === "true" || v === "1") return false;
  if (v === "off" || v === "false" || v === "0") return true;
  throw new Error(`DATABASE_PREPARED_STATEMENTS must be on or off (got ${value})`);
}

export interface RunningPlatform {
  ctx: AppContext;
  url?: string;
  bootstrap: BootstrapResult | null;
  close(): Promise<void>;
}

/** Asked of `listen`; the kernel caps it at `net.core.somaxconn`. */
const LISTEN_BACKLOG = 65_535;

/** Starts what `ROLE` asks for: database (embedded or DATABASE_URL), migrations, bootstrap, HTTP API, background work. */
export async function startPlatform(config: Config): Promise<RunningPlatform> {
  // The start's phases, logged once it serves ("platform started"): what a first start spends its time on.
  const timer = phaseTimer();
  // First, so that everything after it is measured; nothing is loaded when telemetry is off.
  const telemetry = await startTelemetry(config.env);
  const logger = createLogger(config.logLevel, config.logDestination, telemetry.enabled ? activeTraceIds : undefined);
  // Parsed first: an invalid EGRESS_ALLOW_CIDRS stops the start before anything else happens.
  const outbound = createOutbound({ allowCidrs: config.env.EGRESS_ALLOW_CIDRS });
  let embedded: EmbeddedDatabase | undefined;
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: (line) => logger.debug({ pg: line }) });
  }
  timer.lap("database");
  const connectionString = config.databaseUrl ?? embedded!.connectionString;
  // What needs a session of its own (LISTEN, the migrations, the first start's advisory lock) connects directly when
  // the pool goes through a transaction-mode pooler (PgBouncer): DATABASE_LISTEN_URL.
  const directString = config.env.DATABASE_LISTEN_URL || connectionString;
  if (preparedStatementsOff(config.env.DATABASE_PREPARED_STATEMENTS)) disableNamedStatements();
  // Every role waits here for a database that is down or restarting (DATABASE_WAIT_S), serving /readyz 503 meanwhile.
  const waitHttp = config.role !== "worker" ? { http: { port: config.port, host: config.host } } : {};
  const applied = await whenDatabaseAnswers(directString, { env: config.env, logger, ...waitHttp }, () =>
    applyMigrations(directString),
  );
  if (applied.length) logger.info({ applied }, "migrations applied");
  timer.lap("migrations");
  const secretsKey = resolveSecretsKey(config);
  const db = connectDatabase(connectionString, {
    max: integerSetting(config.env, "DATABASE_POOL_MAX", 20, 1, 1000),
    connectTimeoutMs: integerSetting(config.env, "DATABASE_CONNECT_TIMEOUT_MS", 5_000, 100, 120_000),
  });
  observePool(db.pool);
  const apiKeys = new ApiKeyCache();
  const listener = new PgListener(
    { connectionString: directString, application_name: LISTENER_APPLICATION_NAME },
    logger,
    () => measure().listenerReconnects.add(1),
  );
  await listener.start();
  const readiness = new Readiness();
  readiness.add("listener", () => (listener.connected ? null : "reconnecting"));
  const stopping = new AbortController();
  const ctx: AppContext = {
    db,
    config,
    logger,
    secrets: new SecretBox(secretsKey),
    signer: new UrlSigner(createHmac("sha256", Buffer.from(secretsKey, "base64")).update("url-signing").digest()),
    apiKeys,
    outbound,
    listener,
    readiness,
    stopping: stopping.signal,
  };
  const boot = await bootstrapOnce(directString, db.prisma, config.bootstrapApiKey);
  timer.lap("bootstrap");
  if (boot?.generated && boot.apiKey) {
    mkdirSync(config.dataDir, { recursive: true });
    const file = join(config.dataDir, "api-key");
    writeFileSync(file, `${boot.apiKey}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  // Ingestion (the HTTP API) starts a turn in this process's job runner when it runs one (`ROLE=all`).
  const localTurns = localTurnsLink();
  const shutdownGraceMs = integerSetting(config.env, "SHUTDOWN_GRACE_MS", 10_000, 0, 600_000);
  const keepAliveTimeoutMs = integerSetting(config.env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", 65_000, 0, 3_600_000);
  let server: Server | undefined;
  let url: string | undefined;
  if (config.role !== "worker") {
    apiKeys.listen(listener);
    const app = createApp(ctx, telemetry, localTurns);
    server = await new Promise<Server>((ok, fail) => {
      const s = createAppServer(app);
      // A client that waits on a model between its requests (10–60 s) finds its connection open (Node closes an
      // idle one after 5 s by default); above a load balancer's idle timeout (60 s at the common clouds), so the
      // balancer closes first. The headers' timeout stays above it, as Node's documentation advises.
      s.keepAliveTimeout = keepAliveTimeoutMs;
      s.headersTimeout = Math.max(s.headersTimeout, keepAliveTimeoutMs + 1_000);
      // The accept queue as deep as the kernel allows (`net.core.somaxconn`, 4,096 on current kernels; Node's default
      // is 511): clients that move together (turns on one model end together) opened thousands of connections at once,
      // and every one past the queue waited a SYN retransmission (1 s, then 3 s…). Under node:cluster the supervisor
      // listens with the children's backlog.
      s.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => ok(s));
      s.once("error", fail);
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    // Listening on every interface (a container's HOST=0.0.0.0), the URL to print and sign links with is loopback's.
    const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host === "::" ? "::1" : config.host;
    url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    config.publicUrl ??= url;
  }
  let background: Stoppable | undefined;
  if (config.role !== "api") background = await startBackground(ctx, localTurns);
  // The process this one replaces may have died between a commit and its notices: followers elsewhere re-read their
  // heads, runners look at the whole queue.
  await Promise.all([announceProcessStart(ctx), askRunnersToSweep(db.pool)]);
  timer.lap(config.role === "api" ? "http" : "http+worker");
  logger.info({ role: config.role, ms: timer.phases, totalMs: timer.totalMs() }, "platform started");

  let closing: Promise<void> | undefined;
  return {
    ctx,
    url,
    bootstrap: boot,
    close() {
      // Idempotent: a second call waits for the first.
      closing ??= (async () => {
        // Graceful: stop accepting, end event streams (clients resume with Last-Event-ID), let requests in flight finish
        // for up to SHUTDOWN_GRACE_MS, then cut what is left.
        stopping.abort();
        await new Promise<void>((ok) => {
          if (!server) return ok();
          const cut = setTimeout(() => server?.closeAllConnections(), shutdownGraceMs);
          // A keep-alive connection whose last response just ended would otherwise linger until its idle timeout.
          const sweep = setInterval(() => server?.closeIdleConnections(), 50);
          server.close(() => {
            clearTimeout(cut);
            clearInterval(sweep);
            ok();
          });
          server.closeIdleConnections();
        });
        await background?.stop();
        // Flushes what is buffered while the pool is still open (the job gauges read it).
        await telemetry.shutdown();
        await drainNotices(db.pool);
        await outbound.close();
        await listener.close();
        await db.close();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
