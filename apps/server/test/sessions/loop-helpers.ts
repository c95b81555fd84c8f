import { expect } from "vitest";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";
import { readLog } from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: log entries are inspected freely by tests
export type LogEntry = any;

/** Polls `probe` until it returns a value other than undefined, failing after `timeoutMs`. */
export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the log satisfies `predicate`; returns the log. */
export function waitForLog(
  t: TestApp,
  tenant: Tenant,
  sessionId: string,
  what: string,
  predicate: (log: LogEntry[]) => boolean,
  timeoutMs?: number,
): Promise<LogEntry[]> {
  return waitUntil(
    what,
    async () => {
      const log = await readLog(t, tenant, sessionId);
      return predicate(log) ? log : undefined;
    },
    timeoutMs,
  );
}

/** Waits for the `count`-th `session.status_idle` of the log (1 = the first turn's end). */
export function waitForIdle(t: TestApp, tenant: Tenant, sessionId: string, count = 1, timeoutMs?: number) {
  return waitForLog(
    t,
    tenant,
    sessionId,
    `idle #${count} of ${sessionId}`,
    (log) => log.filter((e) => e.type === "session.status_idle").length >= count,
    timeoutMs,
  );
}

export const types = (log: LogEntry[]) => log.map((e) => e.type);

/** `seq` is 1, 2, 3… and ids are unique. */
export function expectGapFree(log: LogEntry[]): void {
  expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
}

export async function getSession(t: TestApp, tenant: Tenant, sessionId: string) {
  const res = await t.http.get(`${tenant.base}/sessions/${sessionId}`).set(tenant.auth);
  expect(res.status).toBe(200);
  return res.body;
}
