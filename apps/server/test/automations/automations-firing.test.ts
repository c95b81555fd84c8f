import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../support/factories.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  armScheduleAt,
  createAgent,
  createAutomation,
  listRuns,
  readLog,
  runNow,
  updateAgent,
  waitForRuns,
  waitUntil,
} from "./helpers.js";

// API and worker in this process: firings run through the job runner against a real database.
const FAKE_MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let tenant: Tenant;
const logLines: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, LOG_LEVEL: "warn" },
    logLines,
  });
  tenant = t.tenant;
});
afterEach(() => fake.reset());
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const session = (id: string) => t.http.get(`${tenant.base}/sessions/${id}`).set(tenant.auth);

async function waitForStatus(sessionId: string, status: "idle" | "running") {
  return waitUntil(`session ${sessionId} ${status}`, async () => {
    const res = await session(sessionId);
    return res.body.status === status ? res.body : undefined;
  });
}

/** A session that stays `running` (its model call hangs) until interrupted. */
async function hangingAgent(): Promise<string> {
  return (await createAgent(t, tenant, { model: FAKE_MODEL })).id;
}

async function interrupt(sessionId: string) {
  const res = await t.http
    .post(`${tenant.base}/sessions/${sessionId}/events`)
    .set(tenant.auth)
    .send({ events: [{ type: "user.interrupt" }] });
  expect(res.status).toBe(202);
}

describe("manual run", () => {
  it("answers 202, then records a started run whose session opens with the prompt", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id, {
      name: "Morning digest",
      prompt: "Summarise the news.",
      trigger: { type: "manual" },
    });
    const runId = await runNow(t, tenant, automation.id);
    const [run] = await waitForRuns(t, tenant, automation.id, 1);
    expect(run).toMatchObject({
      id: runId,
      automationId: automation.id,
      sessionId: expect.stringMatching(/^sess_/),
      triggerKind: "manual",
      scheduledFor: null,
      status: "started",
      error: null,
      sessionTitle: "Morning digest",
    });
    const log = await waitUntil("the echo reply", async () => {
      const entries = await readLog(t, tenant, run.sessionId);
      return entries.some((e) => e.type === "session.status_idle") ? entries : undefined;
    });
    expect(log[0]).toMatchObject({
      seq: 1,
      type: "user.message",
      content: [{ type: "text", text: "Summarise the news." }],
    });
    expect(log.find((e) => e.type === "agent.message").content[0].text).toBe("Summarise the news.");
    const created = (await session(run.sessionId)).body;
    expect(created).toMatchObject({
      agent: { id: agent.id, version: 1 },
      title: "Morning digest",
      metadata: { automationId: automation.id, automationRunId: runId },
    });

    // The session fields of the run are read live.
    const [settled] = await listRuns(t, tenant, automation.id);
    expect(settled).toMatchObject({ sessionStatus: "idle", sessionStopReason: "end_turn" });
    await t.http.patch(`${tenant.base}/sessions/${run.sessionId}`).set(tenant.auth).send({ title: "Renamed" });
    expect((await listRuns(t, tenant, automation.id))[0].sessionTitle).toBe("Renamed");
    await t.http.delete(`${tenant.base}/sessions/${run.sessionId}`).set(tenant.auth);
    expect((await listRuns(t, tenant, automation.id))[0]).toMatchObject({
      sessionId: run.sessionId,
      sessionStatus: null,
      sessionStopReason: null,
      sessionTitle: null,
    });
  });

  it("runs a disabled automation too, and lists runs newest first", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id, { enabled: false });
    const first = await runNow(t, tenant, automation.id);
    await waitForRuns(t, tenant, automation.id, 1);
    const second = await runNow(t, tenant, automation.id);
    const runs = await waitForRuns(t, tenant, automation.id, 2);
    expect(runs.map((r) => r.id)).toEqual([second, first]);
    expect(runs.every((r) => r.status === "started")).toBe(true);
  });
});

describe("schedule", () => {
  it("fires at its time through the worker's runner, then arms the next schedule time", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id);
    const at = await armScheduleAt(t, automation.id, 1_500);
    const [run] = await waitForRuns(t, tenant, automation.id, 1);
    expect(run).toMatchObject({ triggerKind: "schedule", status: "started", scheduledFor: at.toISOString() });
    expect(new Date(run.createdAt).getTime()).toBeGreaterThanOrEqual(at.getTime());
    const after = await waitUntil("the next firing armed", async () => {
      const res = await t.http.get(`${tenant.base}/automations/${automation.id}`).set(tenant.auth);
      return res.body.nextRunAt !== at.toISOString() ? res.body : undefined;
    });
    expect(after.nextRunAt).toBe(`${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`);
    const job = await waitUntil("the job handed back, due at the next time", async () => {
      const { rows } = await t.platform.ctx.db.pool.query<{ dueAt: Date; leaseOwner: string | null }>(
        `SELECT "dueAt", "leaseOwner" FROM jobs WHERE "kind" = 'automation.schedule' AND "key" = $1`,
        [automation.id],
      );
      return rows[0]?.leaseOwner === null ? rows[0] : undefined;
    });
    expect(job.dueAt.toISOString()).toBe(after.nextRunAt);
    expect(await listRuns(t, tenant, automation.id)).toHaveLength(1);
  });

  it("does not fire a disabled automation (its job ends without a run)", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id, { enabled: false });
    await armScheduleAt(t, automation.id);
    await waitUntil("the stray job to end", async () => {
      const { rowCount } = await t.platform.ctx.db.pool.query(
        `SELECT 1 FROM jobs WHERE "kind" = 'automation.schedule' AND "key" = $1`,
        [automation.id],
      );
      return rowCount === 0 ? true : undefined;
    });
    expect(await listRuns(t, tenant, automation.id)).toEqual([]);
  });
});

describe("overlap", () => {
  it("skip (default): a firing while the previous session is at work is recorded as an error, with no session", async () => {
    const automation = await createAutomation(t, tenant, await hangingAgent());
    fake.enqueue({ hang: true });
    await runNow(t, tenant, automation.id);
    const [first] = await waitForRuns(t, tenant, automation.id, 1);
    await waitForStatus(first.sessionId, "running");

    const at = await armScheduleAt(t, automation.id);
    const [skipped] = await waitForRuns(t, tenant, automation.id, 2);
    expect(skipped).toMatchObject({
      triggerKind: "schedule",
      scheduledFor: at.toISOString(),
      status: "error",
      sessionId: null,
      sessionStatus: null,
      sessionStopReason: null,
      sessionTitle: null,
    });
    expect(skipped.error).toContain(first.sessionId);
    expect(skipped.error).toMatch(/^Skipped: .*overlap: skip/);
    await interrupt(first.sessionId);
    await waitForStatus(first.sessionId, "idle");

    // The previous session is done: the next firing starts a session.
    await armScheduleAt(t, automation.id);
    const [started] = await waitForRuns(t, tenant, automation.id, 3);
    expect(started).toMatchObject({ status: "started", sessionId: expect.stringMatching(/^sess_/) });
  });

  it("allow: fires while the previous session is at work", async () => {
    const automation = await createAutomation(t, tenant, await hangingAgent(), {
      trigger: { type: "schedule", cron: "0 0 1 1 *", timezone: "UTC", overlap: "allow" },
    });
    fake.enqueue({ hang: true }, { hang: true });
    await runNow(t, tenant, automation.id);
    const [first] = await waitForRuns(t, tenant, automation.id, 1);
    await waitForStatus(first.sessionId, "running");
    await armScheduleAt(t, automation.id);
    const [second] = await waitForRuns(t, tenant, automation.id, 2);
    expect(second).toMatchObject({ status: "started", triggerKind: "schedule" });
    await waitForStatus(second.sessionId, "running");
    await interrupt(first.sessionId);
    await interrupt(second.sessionId);
  });

  it("queue_one: fires once the previous session is done; a further firing meanwhile is skipped", async () => {
    const automation = await createAutomation(t, tenant, await hangingAgent(), {
      trigger: { type: "schedule", cron: "0 0 1 1 *", timezone: "UTC", overlap: "queue_one" },
    });
    fake.enqueue({ hang: true });
    await runNow(t, tenant, automation.id);
    const [first] = await waitForRuns(t, tenant, automation.id, 1);
    await waitForStatus(first.sessionId, "running");

    const queuedAt = await armScheduleAt(t, automation.id);
    const pool = t.platform.ctx.db.pool;
    await waitUntil("the firing queued", async () => {
      const { rows } = await pool.query(`SELECT "queuedFireAt" FROM automations WHERE "id" = $1`, [automation.id]);
      return rows[0].queuedFireAt?.getTime() === queuedAt.getTime() ? true : undefined;
    });
    const laterAt = await armScheduleAt(t, automation.id);
    const [skipped] = await waitForRuns(t, tenant, automation.id, 2);
    expect(skipped).toMatchObject({ status: "error", scheduledFor: laterAt.toISOString(), sessionId: null });
    expect(skipped.error).toMatch(/already waits/);

    await interrupt(first.sessionId);
    const [fired] = await waitForRuns(t, tenant, automation.id, 3);
    expect(fired).toMatchObject({ status: "started", triggerKind: "schedule", scheduledFor: queuedAt.toISOString() });
    const { rows } = await pool.query(`SELECT "queuedFireAt" FROM automations WHERE "id" = $1`, [automation.id]);
    expect(rows[0].queuedFireAt).toBeNull();
  });
});

describe("a firing re-run after a crash (its worker died after the commit, before handing the job back)", () => {
  const pool = () => t.platform.ctx.db.pool;
  const sessionsOfRun = async (runId: string) =>
    (await pool().query(`SELECT 1 FROM sessions WHERE "metadata"->>'automationRunId' = $1`, [runId])).rowCount;
  /** Tells the runners when the dead worker's lease expires (they would otherwise find it on their next sweep). */
  const notifyDue = (kind: string, key: string) =>
    pool().query(
      `SELECT pg_notify('jobs', "kind" || '|' || (EXTRACT(EPOCH FROM "dueAt") * 1000)::bigint || '|' || "key")
       FROM jobs WHERE "kind" = $1 AND "key" = $2`,
      [kind, key],
    );
  const jobGone = (kind: string, key: string) =>
    waitUntil(`${kind} ${key} to end`, async () => {
      const { rowCount } = await pool().query(`SELECT 1 FROM jobs WHERE "kind" = $1 AND "key" = $2`, [kind, key]);
      return rowCount === 0 ? true : undefined;
    });

  it("does not record a manual run twice", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id);
    const runId = await runNow(t, tenant, automation.id);
    await waitForRuns(t, tenant, automation.id, 1);
    await jobGone("automation.run", runId);
    // The job row as a dead worker leaves it: claimed, its lease about to expire.
    await pool().query(
      `INSERT INTO jobs ("kind", "key", "payload", "leaseOwner", "dueAt", "attempts")
       VALUES ('automation.run', $1, $2::jsonb, 'dead-worker:1', now() + interval '300 milliseconds', 1)`,
      [runId, JSON.stringify({ automationId: automation.id })],
    );
    await notifyDue("automation.run", runId);
    await jobGone("automation.run", runId);
    expect(await listRuns(t, tenant, automation.id)).toHaveLength(1);
    expect(await sessionsOfRun(runId)).toBe(1);
  });

  it("does not fire a schedule time twice", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id);
    const at = await armScheduleAt(t, automation.id);
    const [run] = await waitForRuns(t, tenant, automation.id, 1);
    expect(run.scheduledFor).toBe(at.toISOString());
    await waitUntil("the schedule handed back", async () => {
      const { rows } = await pool().query(
        `SELECT "leaseOwner" FROM jobs WHERE "kind" = 'automation.schedule' AND "key" = $1`,
        [automation.id],
      );
      return rows[0]?.leaseOwner === null ? true : undefined;
    });
    await pool().query(
      `UPDATE jobs SET "leaseOwner" = 'dead-worker:2', "dueAt" = now() + interval '300 milliseconds', "attempts" = 1
       WHERE "kind" = 'automation.schedule' AND "key" = $1`,
      [automation.id],
    );
    await notifyDue("automation.schedule", automation.id);
    await waitUntil("the schedule taken over and handed back", async () => {
      const { rows } = await pool().query(
        `SELECT "leaseOwner", "dueAt" FROM jobs WHERE "kind" = 'automation.schedule' AND "key" = $1`,
        [automation.id],
      );
      return rows[0]?.leaseOwner === null && rows[0].dueAt.getTime() > Date.now() + 86_400_000 ? true : undefined;
    });
    expect(await listRuns(t, tenant, automation.id)).toHaveLength(1);
  });
});

describe("firing rules", () => {
  it("falls back to the current version when the pinned one vanished, and logs an error", async () => {
    const agent = await createAgent(t, tenant);
    const current = await updateAgent(t, tenant, agent.id, 1, { system: "v2" });
    const automation = await createAutomation(t, tenant, agent.id, { agentVersion: 1 });
    // A pin that no longer exists (versions are never deleted through the API: the row is edited).
    await t.platform.ctx.db.pool.query(`UPDATE automations SET "agentVersion" = 99 WHERE "id" = $1`, [automation.id]);
    await runNow(t, tenant, automation.id);
    const [run] = await waitForRuns(t, tenant, automation.id, 1);
    expect(run.status).toBe("started");
    expect((await session(run.sessionId)).body.agent).toEqual({ id: agent.id, version: current.version });
    const line = logLines.find((l) => l.includes("pinned agent version vanished") && l.includes(automation.id));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 50, pinnedVersion: 99 });
  });

  it("records an error run when the agent has no usable version (archived since)", async () => {
    const agent = await createAgent(t, tenant);
    const automation = await createAutomation(t, tenant, agent.id);
    await t.http.post(`${tenant.base}/agents/${agent.id}/archive`).set(tenant.auth).send({});
    await runNow(t, tenant, automation.id);
    const [run] = await waitForRuns(t, tenant, automation.id, 1);
    expect(run).toMatchObject({ status: "error", sessionId: null, sessionStatus: null });
    expect(run.error).toMatch(/archived/);
  });

  it("drops references that vanished; blank values fall to the agent's defaults, then the account default", async () => {
    const mk = async (path: string, name: string) =>
      (await t.http.post(path).set(tenant.auth).send({ name })).body.id as string;
    const env = await mk(`${tenant.base}/environments`, "fire-env");
    const vault = await mk("/v1/vaults", "fire-vault");
    const store = await mk(`${tenant.base}/memory-stores`, "fire-store");
    const agentEnv = await mk(`${tenant.base}/environments`, "agent-env");
    const agentVault = await mk("/v1/vaults", "agent-vault");
    const agent = await createAgent(t, tenant, {
      defaults: { environmentId: agentEnv, vaultIds: [agentVault] },
    });
    const explicit = await createAutomation(t, tenant, agent.id, {
      environmentId: env,
      vaultIds: [vault],
      resources: [{ memoryStoreId: store, memoryStoreName: "fire-store", mode: "read-write" }],
    });
    const blank = await createAutomation(t, tenant, agent.id, { environmentId: null, vaultIds: [], resources: [] });

    await t.http.post(`${tenant.base}/environments/${env}/archive`).set(tenant.auth).send({});
    await t.http.delete(`/v1/vaults/${vault}`).set(tenant.auth);
    await t.http.delete(`${tenant.base}/memory-stores/${store}`).set(tenant.auth);
    await runNow(t, tenant, explicit.id);
    await runNow(t, tenant, blank.id);
    const [explicitRun] = await waitForRuns(t, tenant, explicit.id, 1);
    const [blankRun] = await waitForRuns(t, tenant, blank.id, 1);
    expect(explicitRun.status).toBe("started");
    expect((await session(explicitRun.sessionId)).body).toMatchObject({
      environmentId: tenant.defaultEnvironmentId,
      vaultIds: [],
      resources: [],
    });
    expect((await session(blankRun.sessionId)).body).toMatchObject({ environmentId: agentEnv, vaultIds: [agentVault] });

    // Changing the agent's defaults changes the next firing.
    await updateAgent(t, tenant, agent.id, 1, { defaults: null });
    await runNow(t, tenant, blank.id);
    const [next] = await waitForRuns(t, tenant, blank.id, 2);
    expect((await session(next.sessionId)).body).toMatchObject({
      agent: { version: 2 },
      environmentId: tenant.defaultEnvironmentId,
      vaultIds: [],
    });
  });

  it("records an error run when a blocking budget is exhausted", async () => {
    const other = await t.newTenant();
    const agent = await createAgent(t, other);
    const budget = await t.http
      .post("/v1/budgets")
      .set(other.auth)
      .send({ scope: "agent", agentId: agent.id, meter: "sessions", limit: 1, period: "total", action: "block" });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    const automation = await createAutomation(t, other, agent.id);
    await runNow(t, other, automation.id);
    const [first] = await waitForRuns(t, other, automation.id, 1);
    expect(first.status).toBe("started");
    await runNow(t, other, automation.id);
    const [second] = await waitForRuns(t, other, automation.id, 2);
    expect(second).toMatchObject({ status: "error", sessionId: null });
    expect(second.error).toMatch(/^Budget exceeded: .*1 of its 1 sessions budget/);
  });
});
