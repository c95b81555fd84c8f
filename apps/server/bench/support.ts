import { randomBytes } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import { type AddressInfo, createServer } from "node:net";
import pg from "pg";

/** A database of its own on a reachable PostgreSQL server, or null (the platform then runs embedded PostgreSQL). */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 1500 });
  try {
    await admin.connect();
  } catch {
    await admin.end().catch(() => {});
    return null;
  }
  const name = `ap_bench_${randomBytes(5).toString("hex")}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/**
 * Time spent in HTTP exchanges with the model provider (request sent → response received), from the diagnostics
 * channels of `node:http`'s client (the providers' fetch, `models/provider-fetch.ts`) and of undici (the global fetch):
 * the platform runs in this process, so every chat completion it makes is seen here.
 */
export class ProviderClock {
  private readonly started = new Map<object, number>();
  private total = 0;
  private calls = 0;
  private readonly channels: [string, (message: unknown) => void][] = [
    ["undici:request:create", (m) => this.start(m, undiciTarget(m))],
    ["undici:request:trailers", (m) => this.done(m)],
    ["undici:request:error", (m) => this.forget(m)],
    ["http.client.request.start", (m) => this.start(m, httpTarget(m))],
    ["http.client.response.finish", (m) => this.done(m)],
    ["http.client.request.error", (m) => this.forget(m)],
  ];

  constructor(
    private readonly origin: string,
    private readonly onTotal: (totalMs: number) => void = () => {},
  ) {
    for (const [name, listener] of this.channels) diagnostics.subscribe(name, listener);
  }

  private start(message: unknown, target: { origin: string; path: string }) {
    if (target.origin === this.origin && target.path.endsWith("/chat/completions")) {
      this.started.set((message as { request: object }).request, performance.now());
    }
  }

  private done(message: unknown) {
    const request = (message as { request: object }).request;
    const start = this.started.get(request);
    if (start === undefined) return;
    this.started.delete(request);
    this.total += performance.now() - start;
    this.calls++;
    this.onTotal(this.total);
  }

  private forget(message: unknown) {
    this.started.delete((message as { request: object }).request);
  }

  /** Milliseconds and calls accumulated so far. */
  read(): { ms: number; calls: number } {
    return { ms: this.total, calls: this.calls };
  }

  close(): void {
    for (const [name, listener] of this.channels) diagnostics.unsubscribe(name, listener);
  }
}

function undiciTarget(message: unknown): { origin: string; path: string } {
  return (message as { request: { origin: string; path: string } }).request;
}

function httpTarget(message: unknown): { origin: string; path: string } {
  const request = (message as { request: { protocol: string; path: string; getHeader(name: string): unknown } })
    .request;
  return { origin: `${request.protocol}//${String(request.getHeader("host"))}`, path: request.path };
}

/** Resolves when a session's log reaches a given `seq` (LISTEN session_events, notified at commit). */
export class LogWatcher {
  private readonly waiting = new Map<string, { seq: number; resolve: (at: number) => void }>();
  private readonly heads = new Map<string, number>();

  private constructor(private readonly client: pg.Client) {
    client.on("notification", (message) => {
      const payload = message.payload ?? "";
      const colon = payload.lastIndexOf(":");
      const sessionId = payload.slice(0, colon);
      const seq = Number(payload.slice(colon + 1));
      const at = performance.now();
      this.heads.set(sessionId, Math.max(seq, this.heads.get(sessionId) ?? 0));
      const waiter = this.waiting.get(sessionId);
      if (waiter && seq >= waiter.seq) {
        this.waiting.delete(sessionId);
        waiter.resolve(at);
      }
    });
  }

  static async connect(url: string): Promise<LogWatcher> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("LISTEN session_events");
    return new LogWatcher(client);
  }

  /** `performance.now()` when the session's log reached `seq` (at once if it already has). */
  until(sessionId: string, seq: number, timeoutMs = 30_000): Promise<number> {
    if ((this.heads.get(sessionId) ?? 0) >= seq) return Promise.resolve(performance.now());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(sessionId);
        reject(new Error(`session ${sessionId} did not reach seq ${seq} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(sessionId, {
        seq,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** A tiny JSON client for the platform's API. */
export function apiClient(baseUrl: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  return async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

export const message = (text: string) => ({ type: "user.message", content: [{ type: "text", text }] });

/** The platform's environment in every benchmark: `ROLE=all`, loopback, the fake model, quiet logs. */
export function benchPlatformEnv(options: {
  databaseUrl?: string;
  dataDir: string;
  apiKey: string;
  modelUrl: string;
  /** The platform runs as a process of its own (its log goes to a pipe the bench reads). */
  separate?: boolean;
}): Record<string, string> {
  return {
    ...(options.databaseUrl
      ? { DATABASE_URL: options.databaseUrl, SECRETS_KEY: randomBytes(32).toString("base64") }
      : {}),
    DATA_DIR: options.dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: "all",
    BOOTSTRAP_API_KEY: options.apiKey,
    OPENAI_COMPATIBLE_BASE_URL: options.modelUrl,
    // A platform in the bench's own process keeps the terminal quiet; one in a process of its own (`separate`) logs at
    // the default level (a line per request) unless BENCH_LOG_LEVEL says otherwise.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? (options.separate ? "info" : "warn"),
  };
}

/** A TCP port free on 127.0.0.1 right now (for a process restarted on the same address). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A Markdown table, its columns padded to their widest cell. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)];
}
