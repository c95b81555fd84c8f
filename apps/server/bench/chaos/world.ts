// What a crash trial runs against, and the small HTTP client its scenarios share.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";

export interface ChaosWorld {
  /** The API (a process that stays up), e.g. `http://127.0.0.1:3000`, and a project it can write to. */
  apiUrl: string;
  projectId: string;
  apiKey: string;
  /** Starts the process that is killed (`ROLE=worker`, or `ROLE=all` with `killedApiUrl`); resolves once it runs. */
  startWorker(): Promise<ChildProcess>;
  /**
   * The killed process's own API when it runs one (`ROLE=all`, always on this address): follow-up messages go there,
   * so that its ingestion claims their turns.
   */
  killedApiUrl?: string;
  /**
   * Moves an automation's schedule clock: its armed schedule time becomes `to` (a past schedule time) and its
   * `automation.schedule` job is due now, so the worker fires `to` at once instead of waiting for the real clock.
   * The harness's only reach into the database (see fast-forward.ts).
   */
  fastForwardSchedule(automationId: string, to: Date): Promise<void>;
  /**
   * Restarts the database as an operator's maintenance or a failover does: stops it (fast shutdown: every connection
   * is cut), keeps it down for `outageMs`, starts it again; resolves once it accepts connections. Only for trials
   * whose fault is a database restart.
   */
  restartDatabase?(outageMs: number): Promise<void>;
}

export type Entry = {
  seq: number;
  id: string;
  type: string;
  stopReason?: string;
  toolUseId?: string;
  name?: string;
  isError?: boolean;
  requiresConfirmation?: boolean;
  result?: string;
  content?: { type: string; text?: string }[];
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a request is retried while the platform answers 503 or cannot be reached (a restarting database). */
const UNAVAILABLE_RETRY_MS = 60_000;

/**
 * A JSON request to a project route (`path` after `/v1/projects/:projectId`); throws on a status ≥ 300. Like a client
 * of a restarting service (the SDK does the same), it retries while the platform answers 503 (or 409
 * `idempotency.in_progress`) or cannot be reached, a
 * write with the same `Idempotency-Key` each time, so that a retry never applies it twice.
 */
export async function api<T>(world: ChaosWorld, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${world.apiKey}` };
  if (body) headers["content-type"] = "application/json";
  if (method !== "GET") headers["idempotency-key"] = `chaos-${randomUUID()}`;
  const deadline = Date.now() + UNAVAILABLE_RETRY_MS;
  for (;;) {
    let res: Response;
    try {
      res = await fetch(`${world.apiUrl}/v1/projects/${world.projectId}${path}`, {
        method,
        headers,
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
      continue;
    }
    const text = await res.text();
    // A 409 `idempotency.in_progress`: the earlier try with this key is still being processed, or the database came
    // back before the key of a refused try was freed; the SDK retries it too.
    const retryable = res.status === 503 || (res.status === 409 && text.includes('"idempotency.in_progress"'));
    if (retryable && Date.now() < deadline) {
      await sleep(200);
      continue;
    }
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

/** Every item of a cursor list. */
export async function listAll<T>(world: ChaosWorld, path: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  const sep = path.includes("?") ? "&" : "?";
  do {
    const page: { data: T[]; nextCursor: string | null } = await api(
      world,
      "GET",
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    out.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** A session's whole log. */
export async function readLog(world: ChaosWorld, sessionId: string): Promise<Entry[]> {
  const out: Entry[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await api<{ data: Entry[]; hasMore: boolean; nextAfterSeq: number }>(
      world,
      "GET",
      `/sessions/${sessionId}/events?afterSeq=${afterSeq}&limit=100`,
    );
    out.push(...page.data);
    if (!page.hasMore) return out;
    afterSeq = page.nextAfterSeq;
  }
}

/** True when the log ends a turn for good (idle with a stop reason other than `requires_action`). */
export function settled(log: readonly Entry[]): boolean {
  const last = log.at(-1);
  return last?.type === "session.status_idle" && !!last.stopReason && last.stopReason !== "requires_action";
}

/** Polls `probe` until it returns a value or `deadline` (epoch ms) passes (then undefined). */
export async function pollUntil<T>(
  deadline: number,
  probe: () => Promise<T | undefined>,
  everyMs = 150,
): Promise<T | undefined> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) return undefined;
    await sleep(everyMs);
  }
}

/** The session's log once its turn has ended, or a failure string when it did not end by `deadline`. */
export async function settledLog(world: ChaosWorld, sessionId: string, deadline: number): Promise<Entry[] | string> {
  let last: Entry[] = [];
  const log = await pollUntil(deadline, async () => {
    last = await readLog(world, sessionId);
    return settled(last) ? last : undefined;
  });
  return log ?? `${sessionId}: the turn did not end (last: ${last.at(-1)?.type} ${last.at(-1)?.stopReason ?? ""})`;
}
