import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase } from "@agent-platform/db";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../sessions/loop-helpers.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { createTenant, type Tenant } from "../support/factories.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { TEST_EGRESS_ALLOW_CIDRS } from "../support/test-app.js";

// `pnpm start` with PROCESSES=2: a supervisor and two ROLE=all children sharing one port. A child killed with SIGKILL
// while it runs turns is started again, and its turns complete (their leases expire and a process resumes them).
const SERVER_DIR = join(import.meta.dirname, "..", "..");
const MODEL = "openai-compatible/fake-model";
const SESSIONS = 8;
let database: TestDatabase;
let tenant: Tenant;
let fake: FakeOpenAI;
let supervisor: ChildProcess;
let output = "";
let url = "";
let dataDir: string;
let answer: () => void;
const answered = new Promise<void>((resolve) => {
  answer = resolve;
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
async function api(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...tenant.auth, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = connectDatabase(database.url);
  tenant = await createTenant(db.prisma);
  await db.close();
  fake = await startFakeOpenAI();
  fake.respondWith(() => ({ text: "answered", after: answered }));
  dataDir = mkdtempSync(join(tmpdir(), "ap-processes-"));
  supervisor = spawn(process.execPath, ["--conditions=agent-platform-source", "--import", "tsx", "src/main.ts"], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? "",
      PROCESSES: "2",
      ROLE: "all",
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      DATA_DIR: dataDir,
      OPENAI_COMPATIBLE_BASE_URL: fake.url,
      EGRESS_ALLOW_CIDRS: TEST_EGRESS_ALLOW_CIDRS,
      WORKER_LEASE_MS: "2000",
      LOG_LEVEL: "info",
      PROMETHEUS_METRICS: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (process.env.DEBUG_WORKERS) process.stderr.write(chunk);
  };
  supervisor.stdout!.on("data", collect);
  supervisor.stderr!.on("data", collect);
  url = await waitUntil(
    "the banner",
    async () => /Base URL:\s+(http\S+)/.exec(output)?.[1] ?? (supervisor.exitCode === null ? undefined : "exited"),
    90_000,
  );
  expect(url, output).not.toBe("exited");
}, 120_000);

afterAll(async () => {
  answer?.();
  if (supervisor && supervisor.exitCode === null) {
    supervisor.kill("SIGKILL");
  }
  await fake?.close();
  await database?.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

const leaseOwnerPids = async (): Promise<number[]> => {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT "leaseOwner" FROM jobs WHERE kind = 'session.turn'`);
    return rows.map((r) => Number(String(r.leaseOwner).split(":")[1]));
  } finally {
    await client.end();
  }
};

const childPids = (): number[] =>
  [...output.matchAll(/"pid":(\d+)[^\n]*"child process started"/g)].map((m) => Number(m[1]));

describe("PROCESSES=2", () => {
  it("prints the banner once and serves the API on one port from its children", async () => {
    expect(output.match(/Agent Platform is running/g)).toHaveLength(1);
    expect(output).toContain("ROLE=all, 2 processes");
    await waitUntil("both children", async () => (childPids().length === 2 ? true : undefined));
    expect(childPids()).not.toContain(supervisor.pid);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });

  it("answers a scrape of /metrics with every child's series, each family once", async () => {
    // Whichever child takes the connection (round-robin), the answer holds both.
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      const text = await res.text();
      expect(text).toMatch(/^target_info\{child="0",/m);
      expect(text).toMatch(/^target_info\{child="1",/m);
      const types = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]);
      expect(types.length).toBeGreaterThan(1);
      expect(new Set(types).size).toBe(types.length);
    }
  });

  it("runs turns in its children and completes those of a child killed with SIGKILL", async () => {
    const agent = await api(`${tenant.base}/agents`, { name: "a", model: MODEL, system: "Be brief." });
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const created = await api(`${tenant.base}/sessions`, {
        agent: agent.body.id,
        events: [{ type: "user.message", content: [{ type: "text", text: `hello ${i}` }] }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      sessions.push(created.body.id);
    }
    await waitUntil("every model call", async () =>
      fake.requests.filter((r) => r.outcome === "pending").length >= SESSIONS ? true : undefined,
    );
    const owners = await leaseOwnerPids();
    const children = childPids();
    expect(owners.every((pid) => children.includes(pid))).toBe(true);
    const victim = owners[0]!;
    process.kill(victim, "SIGKILL");
    await waitUntil("the restart", async () =>
      /child process exited; starting it again/.test(output) && childPids().length === 3 ? true : undefined,
    );
    answer();
    for (const id of sessions) {
      await waitUntil(
        `session ${id} idle`,
        async () => {
          const page = await api(`${tenant.base}/sessions/${id}/events?limit=100`);
          const last = page.body.data?.at(-1);
          return last?.type === "session.status_idle" ? last : undefined;
        },
        60_000,
      );
    }
    // The API still answers on the same port, now from the restarted child too.
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 120_000);

  it("stops every child on SIGTERM", async () => {
    const children = childPids().slice(-2);
    const exited = new Promise<number | null>((resolve) => supervisor.once("exit", (code) => resolve(code)));
    supervisor.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of children) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
