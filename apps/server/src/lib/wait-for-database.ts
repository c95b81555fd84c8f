import { createServer, type Server } from "node:http";
import type { Readiness } from "@agent-platform/contract";
import pg from "pg";
import type { Logger } from "pino";
import { newId } from "../ids.js";
import { isDatabaseUnavailable } from "./database-unavailable.js";
import { integerSetting } from "./env.js";

/** `DATABASE_WAIT_S`: how long a starting process waits for its database before it gives up. */
export const DATABASE_WAIT_VARIABLE = "DATABASE_WAIT_S";
const DEFAULT_WAIT_S = 60;
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/** Name lookups that fail while a database host comes up (a container not started yet, DNS not updated yet). */
const NOT_YET_RESOLVABLE = new Set(["ENOTFOUND", "EAI_AGAIN"]);

export interface DatabaseWaitOptions {
  env: Readonly<Record<string, string | undefined>>;
  logger: Pick<Logger, "info" | "warn" | "fatal">;
  /** The HTTP listener of a process that serves one: while it waits, `/healthz` answers 200 and `/readyz` 503. */
  http?: { port: number; host: string };
}

/** The process gave up waiting for its database (already logged): it exits non-zero without a stack trace. */
export class DatabaseWaitExpired extends Error {
  override readonly name = "DatabaseWaitExpired";
}

/**
 * Runs `start` — the part of a process's start that needs PostgreSQL (the migrations) — once the database answers.
 * While it does not (down, restarting, refusing connections, a host not resolvable yet), or when it goes away during
 * `start`, the process waits with backoff (0.25 s doubling to 5 s), says so in one log line, and answers `/readyz`
 * 503 where it serves HTTP; then runs `start` again. Past `DATABASE_WAIT_S` (60 s; 0: no wait) without an answer it
 * logs one line saying what to fix and throws `DatabaseWaitExpired`. Any other failure (a wrong password, a migration
 * that fails) is thrown at once. Costs one short connection when the database answers at once.
 */
export async function whenDatabaseAnswers<T>(
  connectionString: string,
  options: DatabaseWaitOptions,
  start: () => Promise<T>,
): Promise<T> {
  const waitMs = integerSetting(options.env, DATABASE_WAIT_VARIABLE, DEFAULT_WAIT_S, 0, 86_400) * 1000;
  const target = describe(connectionString);
  let waiting: { since: number; server?: Server } | undefined;
  let retryMs = FIRST_RETRY_MS;
  try {
    for (;;) {
      let error: unknown;
      try {
        await ping(connectionString);
        const started = await start();
        if (waiting) {
          const seconds = ((Date.now() - waiting.since) / 1000).toFixed(1);
          options.logger.info(
            { database: target, waitedS: Number(seconds) },
            `the database answers after ${seconds} s`,
          );
        }
        return started;
      } catch (caught) {
        if (!waitable(caught)) throw caught;
        error = caught;
      }
      if (!waiting) {
        waiting = { since: Date.now() };
        options.logger.warn(
          { database: target, error: reason(error), waitS: waitMs / 1000 },
          `waiting for the database at ${target} (${reason(error)}); retrying with backoff for up to ${waitMs / 1000} s ` +
            `(${DATABASE_WAIT_VARIABLE})`,
        );
        if (options.http) waiting.server = await serveWhileWaiting(options.http);
      }
      if (Date.now() - waiting.since + retryMs > waitMs) {
        options.logger.fatal(
          { database: target, error: reason(error) },
          `the database at ${target} did not answer within ${waitMs / 1000} s (${reason(error)}): start PostgreSQL ` +
            `or correct DATABASE_URL, or wait longer with ${DATABASE_WAIT_VARIABLE}; exiting`,
        );
        throw new DatabaseWaitExpired(`the database at ${target} did not answer within ${waitMs / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  } finally {
    if (waiting?.server) await new Promise((resolve) => waiting!.server!.close(resolve));
  }
}

/** One connection and `SELECT 1`: the database answers. */
async function ping(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
  } finally {
    await client.end().catch(() => {});
  }
}

function waitable(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && NOT_YET_RESOLVABLE.has(code);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** `host:port/database` of a connection string (never its password). */
function describe(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

/**
 * While the process waits: `/healthz` 200 (the process is up), `/readyz` 503 with the database `waiting`, anything
 * else 503 `service.unavailable` with `Retry-After`. Closed before the process serves its API on the same address.
 */
async function serveWhileWaiting(http: { port: number; host: string }): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(JSON.stringify(body));
    };
    if (path === "/healthz") return json(200, { status: "ok" });
    const waiting: Readiness = { status: "unavailable", checks: { database: "waiting" } };
    if (path === "/readyz") return json(503, waiting);
    json(
      503,
      {
        error: {
          code: "service.unavailable",
          message: "The server is waiting for its database and starts when it answers; retry in a few seconds",
          requestId: newId("request"),
        },
      },
      { "retry-after": "5" },
    );
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(http.port, http.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
