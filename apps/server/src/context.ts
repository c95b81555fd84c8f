import type { DatabaseHandle } from "@agent-platform/db";
import type { Logger } from "pino";
import type { ApiKeyCache } from "./auth/api-key-cache.js";
import type { Config } from "./config.js";
import type { SecretBox } from "./crypto/secret-box.js";
import type { UrlSigner } from "./crypto/url-signer.js";
import type { Outbound } from "./lib/outbound/index.js";
import type { PgListener } from "./lib/pg-listener.js";
import type { Readiness } from "./lib/readiness.js";

/** What services need from the process: database, configuration, logger and keys. Built once in main. */
export interface AppContext {
  db: DatabaseHandle;
  config: Config;
  logger: Logger;
  secrets: SecretBox;
  signer: UrlSigner;
  /** Resolved API keys (invalidated on revocation across processes). */
  apiKeys: ApiKeyCache;
  /** HTTP for calls made on someone's behalf (tools, MCP servers, webhooks): fenced by the address policy. */
  outbound: Outbound;
  /** The process's one LISTEN connection, shared by everything that waits on notifications. */
  listener: PgListener;
  /** What `/readyz` checks besides the database (the listener, the job runner): each part registers itself. */
  readiness: Readiness;
  /** Aborted when the process starts shutting down: long-lived responses (SSE) end cleanly so clients resume elsewhere. */
  stopping: AbortSignal;
}
