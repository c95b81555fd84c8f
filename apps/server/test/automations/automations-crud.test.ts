import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, createAutomation, expectError, expectInvalid, listRuns, updateAgent, YEARLY } from "./helpers.js";

// API only: nothing fires here (firings are in automations-firing.test.ts).
let t: TestApp;
let tenant: Tenant;
let agentId: string;

beforeAll(async () => {
  t = await startTestApp();
  tenant = t.tenant;
  agentId = (await createAgent(t, tenant)).id;
});
afterAll(async () => {
  await t?.close();
});

const path = (id = "") => `${tenant.base}/automations${id ? `/${id}` : ""}`;
const post = (body: object) => t.http.post(path()).set(tenant.auth).send(body);
const patch = (id: string, body: object) => t.http.patch(path(id)).set(tenant.auth).send(body);
const valid = () => ({ name: "Report", agentId, prompt: "Write the report.", trigger: YEARLY });

async function scheduleJob(id: string) {
  const { rows } = await t.platform.ctx.db.pool.query<{ dueAt: Date }>(
    `SELECT "dueAt" FROM jobs WHERE "kind" = 'automation.schedule' AND "key" = $1`,
    [id],
  );
  return rows[0] ?? null;
}

describe("create and read", () => {
  it("creates a schedule with its defaults, armed at its next time", async () => {
    const res = await post({
      ...valid(),
      trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "europe/paris" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^auto_/),
      projectId: tenant.projectId,
      name: "Report",
      description: null,
      agentId,
      agentVersion: null,
      prompt: "Write the report.",
      trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "Europe/Paris", overlap: "skip", jitterSeconds: 0 },
      enabled: true,
      environmentId: null,
      vaultIds: [],
      resources: [],
      scheduleDescription: "At 09:00 AM, Monday through Friday",
    });
    const next = new Date(res.body.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", timeStyle: "short" }).format(next)).toBe(
      "09:00",
    );
    expect((await scheduleJob(res.body.id))?.dueAt.toISOString()).toBe(res.body.nextRunAt);
    const got = await t.http.get(path(res.body.id)).set(tenant.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it("creates a manual automation with no schedule, and a disabled schedule that is not armed", async () => {
    const manual = await createAutomation(t, tenant, agentId, { trigger: { type: "manual" } });
    expect(manual).toMatchObject({ trigger: { type: "manual" }, nextRunAt: null, scheduleDescription: null });
    expect(await scheduleJob(manual.id)).toBeNull();
    const disabled = await createAutomation(t, tenant, agentId, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, nextRunAt: null });
    expect(await scheduleJob(disabled.id)).toBeNull();
  });

  it("stores vaults and memory stores named by name as ids, with the store's real name", async () => {
    const vault = await t.http.post("/v1/vaults").set(tenant.auth).send({ name: "crud-vault" });
    const store = await t.http.post(`${tenant.base}/memory-stores`).set(tenant.auth).send({ name: "crud-store" });
    const env = await t.http.post(`${tenant.base}/environments`).set(tenant.auth).send({ name: "crud-env" });
    const created = await createAutomation(t, tenant, agentId, {
      environmentId: env.body.id,
      vaultIds: ["crud-vault"],
      resources: [{ memoryStoreId: "crud-store", memoryStoreName: "whatever", mode: "read-only" }],
    });
    expect(created).toMatchObject({
      environmentId: env.body.id,
      vaultIds: [vault.body.id],
      resources: [{ memoryStoreId: store.body.id, memoryStoreName: "crud-store", mode: "read-only" }],
    });
  });

  it("lists newest first with cursors", async () => {
    const other = await t.newTenant();
    const agent = await createAgent(t, other);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createAutomation(t, other, agent.id, { name: `a${i}` })).id);
    const first = await t.http.get(`${other.base}/automations?limit=2`).set(other.auth);
    expect(first.status).toBe(200);
    expect(first.body.data.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await t.http
      .get(`${other.base}/automations?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .set(other.auth);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
  });

  it("starts with an empty runs list", async () => {
    const created = await createAutomation(t, tenant, agentId);
    expect(await listRuns(t, tenant, created.id)).toEqual([]);
  });
});

describe("validation", () => {
  it.each([
    ["agentId missing", { agentId: undefined }, ["body.agentId"]],
    ["a name over 200 characters", { name: "n".repeat(201) }, ["body.name"]],
    ["an empty name", { name: "  " }, ["body.name"]],
    ["a prompt over 20000 characters", { prompt: "p".repeat(20_001) }, ["body.prompt"]],
    ["17 vaults", { vaultIds: Array.from({ length: 17 }, (_, i) => `v${i}`) }, ["body.vaultIds"]],
    [
      "17 memory mounts",
      {
        resources: Array.from({ length: 17 }, (_, i) => ({
          memoryStoreId: `s${i}`,
          memoryStoreName: `s${i}`,
          mode: "read-only",
        })),
      },
      ["body.resources"],
    ],
    ["an unknown trigger type", { trigger: { type: "webhook" } }, ["body.trigger.type"]],
    ["a bad cron", { trigger: { ...YEARLY, cron: "61 * * * *" } }, ["body.trigger.cron"]],
    ["a 6-field cron", { trigger: { ...YEARLY, cron: "0 0 9 * * *" } }, ["body.trigger.cron"]],
    ["a cron that never fires", { trigger: { ...YEARLY, cron: "0 0 30 2 *" } }, ["body.trigger.cron"]],
    ["an unknown time zone", { trigger: { ...YEARLY, timezone: "Mars/Olympus" } }, ["body.trigger.timezone"]],
    ["no time zone", { trigger: { type: "schedule", cron: "* * * * *" } }, ["body.trigger.timezone"]],
    ["an unknown overlap", { trigger: { ...YEARLY, overlap: "sometimes" } }, ["body.trigger.overlap"]],
    ["jitter over an hour", { trigger: { ...YEARLY, jitterSeconds: 3601 } }, ["body.trigger.jitterSeconds"]],
    ["negative jitter", { trigger: { ...YEARLY, jitterSeconds: -1 } }, ["body.trigger.jitterSeconds"]],
    ["an unknown field", { color: "red" }, ["body"]],
  ])("refuses %s with 400 request.invalid", async (_what, change, paths) => {
    expectInvalid(await post({ ...valid(), ...change }), paths);
  });

  it("answers 404 agent.not_found for an agent that does not exist (or is another project's)", async () => {
    expectError(await post({ ...valid(), agentId: "agent_00000000000000000000000000" }), 404, "agent.not_found");
    const other = await t.newTenant();
    const theirs = await createAgent(t, other);
    expectError(await post({ ...valid(), agentId: theirs.id }), 404, "agent.not_found");
  });

  it("answers the spec's 422 codes for references that do not resolve", async () => {
    expectError(await post({ ...valid(), agentVersion: 7 }), 422, "automation.agent_version_not_found");
    expectError(
      await post({ ...valid(), environmentId: "env_00000000000000000000000000" }),
      422,
      "automation.environment_not_found",
    );
    expectError(await post({ ...valid(), vaultIds: ["no-such-vault"] }), 422, "automation.vault_not_found");
    expectError(
      await post({
        ...valid(),
        resources: [{ memoryStoreId: "no-such-store", memoryStoreName: "x", mode: "read-write" }],
      }),
      422,
      "automation.memory_store_not_found",
    );
    const archivedEnv = await t.http.post(`${tenant.base}/environments`).set(tenant.auth).send({ name: "old-env" });
    await t.http.post(`${tenant.base}/environments/${archivedEnv.body.id}/archive`).set(tenant.auth).send({});
    expectError(
      await post({ ...valid(), environmentId: archivedEnv.body.id }),
      422,
      "automation.environment_not_found",
    );
  });

  it("answers 422 automation.agent_archived for an archived agent", async () => {
    const archived = await createAgent(t, tenant);
    await t.http.post(`${tenant.base}/agents/${archived.id}/archive`).set(tenant.auth).send({});
    expectError(await post({ ...valid(), agentId: archived.id, agentVersion: 1 }), 422, "automation.agent_archived");
    expectError(await post({ ...valid(), agentId: archived.id }), 422, "automation.agent_archived");
  });

  it("writes nothing when refused", async () => {
    const other = await t.newTenant();
    const agent = await createAgent(t, other);
    await t.http
      .post(`${other.base}/automations`)
      .set(other.auth)
      .send({ ...valid(), agentId: agent.id, vaultIds: ["missing"] });
    const list = await t.http.get(`${other.base}/automations`).set(other.auth);
    expect(list.body.data).toEqual([]);
  });
});

describe("update (PATCH)", () => {
  it("changes only the fields present and clears description, agentVersion and environmentId with null", async () => {
    const env = await t.http.post(`${tenant.base}/environments`).set(tenant.auth).send({ name: "patch-env" });
    const created = await createAutomation(t, tenant, agentId, {
      description: "daily",
      agentVersion: 1,
      environmentId: env.body.id,
    });
    const renamed = await patch(created.id, { name: "Renamed" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({
      name: "Renamed",
      description: "daily",
      agentVersion: 1,
      prompt: created.prompt,
    });
    expect(renamed.body.nextRunAt).toBe(created.nextRunAt);
    const cleared = await patch(created.id, { description: null, agentVersion: null, environmentId: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: "Renamed", description: null, agentVersion: null, environmentId: null });
    expect((await t.http.get(path(created.id)).set(tenant.auth)).body).toEqual(cleared.body);
  });

  it("refuses agentId and invalid fields with 400, and another project's automation with 404", async () => {
    const created = await createAutomation(t, tenant, agentId);
    expectInvalid(await patch(created.id, { agentId }), ["body"]);
    expectInvalid(await patch(created.id, { trigger: { ...YEARLY, cron: "* *" } }), ["body.trigger.cron"]);
    expectInvalid(await patch(created.id, { name: null }), ["body.name"]);
    expectError(await patch("auto_00000000000000000000000000", { name: "x" }), 404, "automation.not_found");
  });

  it("revalidates only what changed: the same pin of an agent archived since does not block an edit", async () => {
    const agent = await createAgent(t, tenant);
    const v2 = await updateAgent(t, tenant, agent.id, 1, { system: "v2" });
    const store = await t.http.post(`${tenant.base}/memory-stores`).set(tenant.auth).send({ name: "kept-store" });
    const vault = await t.http.post("/v1/vaults").set(tenant.auth).send({ name: "kept-vault" });
    const created = await createAutomation(t, tenant, agent.id, {
      agentVersion: v2.version,
      vaultIds: [vault.body.id],
      resources: [{ memoryStoreId: store.body.id, memoryStoreName: "kept-store", mode: "read-write" }],
    });
    await t.http.post(`${tenant.base}/agents/${agent.id}/archive`).set(tenant.auth).send({});
    await t.http.delete(`/v1/vaults/${vault.body.id}`).set(tenant.auth);

    const edit = await patch(created.id, {
      agentVersion: v2.version,
      prompt: "Shorter report.",
      vaultIds: [vault.body.id],
      resources: [{ memoryStoreId: store.body.id, memoryStoreName: "kept-store", mode: "read-only" }],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body).toMatchObject({ prompt: "Shorter report.", agentVersion: 2, vaultIds: [vault.body.id] });
    expect(edit.body.resources[0].mode).toBe("read-only");

    // A pin that changes is checked: the agent is archived now.
    expectError(await patch(created.id, { agentVersion: 1 }), 422, "automation.agent_archived");
    // New references are checked.
    expectError(await patch(created.id, { vaultIds: [vault.body.id, "nope"] }), 422, "automation.vault_not_found");
  });

  it("answers the 422 codes for changed references", async () => {
    const created = await createAutomation(t, tenant, agentId);
    expectError(await patch(created.id, { agentVersion: 99 }), 422, "automation.agent_version_not_found");
    expectError(
      await patch(created.id, { environmentId: "env_00000000000000000000000000" }),
      422,
      "automation.environment_not_found",
    );
    expectError(await patch(created.id, { vaultIds: ["missing"] }), 422, "automation.vault_not_found");
    expectError(
      await patch(created.id, { resources: [{ memoryStoreId: "missing", memoryStoreName: "m", mode: "read-only" }] }),
      422,
      "automation.memory_store_not_found",
    );
    expect((await t.http.get(path(created.id)).set(tenant.auth)).body).toEqual(created);
  });

  it("re-arms the schedule when it changes, removes it when disabled or manual, arms it again when enabled", async () => {
    const created = await createAutomation(t, tenant, agentId);
    const moved = await patch(created.id, { trigger: { type: "schedule", cron: "*/5 * * * *", timezone: "UTC" } });
    expect(moved.body.scheduleDescription).toBe("Every 5 minutes");
    expect(new Date(moved.body.nextRunAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect((await scheduleJob(created.id))?.dueAt.toISOString()).toBe(moved.body.nextRunAt);

    const disabled = await patch(created.id, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, nextRunAt: null });
    expect(await scheduleJob(created.id)).toBeNull();

    const enabled = await patch(created.id, { enabled: true });
    expect(enabled.body.nextRunAt).not.toBeNull();
    expect(await scheduleJob(created.id)).not.toBeNull();

    const manual = await patch(created.id, { trigger: { type: "manual" } });
    expect(manual.body).toMatchObject({ trigger: { type: "manual" }, nextRunAt: null });
    expect(await scheduleJob(created.id)).toBeNull();
  });
});

describe("delete", () => {
  it("removes the automation and its schedule at once", async () => {
    const created = await createAutomation(t, tenant, agentId);
    expect(await scheduleJob(created.id)).not.toBeNull();
    const res = await t.http.delete(path(created.id)).set(tenant.auth);
    expect(res.status).toBe(204);
    expect(await scheduleJob(created.id)).toBeNull();
    expectError(await t.http.get(path(created.id)).set(tenant.auth), 404, "automation.not_found");
    expectError(await t.http.delete(path(created.id)).set(tenant.auth), 404, "automation.not_found");
  });
});

describe("another project's key", () => {
  it("answers 404 automation.not_found on every route that names an automation", async () => {
    const created = await createAutomation(t, tenant, agentId);
    const other = await t.newTenant();
    const theirs = (p: string) => p.replace(tenant.projectId, other.projectId);
    // Their key on our paths, and their key on their own project path with our automation id.
    for (const base of [path(created.id), theirs(path(created.id))]) {
      expectError(await t.http.get(base).set(other.auth), 404, "automation.not_found");
      expectError(await t.http.patch(base).set(other.auth).send({ name: "x" }), 404, "automation.not_found");
      expectError(await t.http.delete(base).set(other.auth), 404, "automation.not_found");
      expectError(await t.http.post(`${base}/run`).set(other.auth), 404, "automation.not_found");
      expectError(await t.http.get(`${base}/runs`).set(other.auth), 404, "automation.not_found");
    }
    expectError(await t.http.get(path()).set(other.auth), 404, "project.not_found");
    expect((await t.http.get(path(created.id)).set(tenant.auth)).status).toBe(200);
  });
});

describe("parse-schedule", () => {
  const parse = (body: object) => t.http.post(`${path()}/parse-schedule`).set(tenant.auth).send(body);

  it("converts English to cron with a description and the next fire times", async () => {
    const res = await parse({ text: "every weekday at 9am", timezone: "America/New_York" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      cron: "0 9 * * 1-5",
      timezone: "America/New_York",
      description: "At 09:00 AM, Monday through Friday",
    });
    expect(res.body.nextRuns).toHaveLength(5);
    const local = new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
    });
    for (const run of res.body.nextRuns) {
      expect(new Date(run).getTime()).toBeGreaterThan(Date.now());
      expect(local.format(new Date(run))).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    }
  });

  it("takes the zone from the text, defaults to UTC, and is usable as a trigger as is", async () => {
    expect((await parse({ text: "daily at 18:30 in Asia/Tokyo" })).body).toMatchObject({
      cron: "30 18 * * *",
      timezone: "Asia/Tokyo",
    });
    const utc = await parse({ text: "every 15 minutes" });
    expect(utc.body).toMatchObject({ cron: "*/15 * * * *", timezone: "UTC", description: "Every 15 minutes" });
    const created = await createAutomation(t, tenant, agentId, {
      trigger: { type: "schedule", cron: utc.body.cron, timezone: utc.body.timezone },
    });
    expect(utc.body.nextRuns).toContain(created.nextRunAt);
  });

  it("answers 422 automation.unparseable_schedule for text it cannot read", async () => {
    for (const text of ["when the moon is full", "every 7 minutes", "daily at 9am in Mars/Base"]) {
      const res = await parse({ text });
      expectError(res, 422, "automation.unparseable_schedule");
      expect(res.body.error.message).toContain(text);
    }
    expectError(
      await parse({ text: "daily at 9am in Europe/Paris", timezone: "Asia/Tokyo" }),
      422,
      "automation.unparseable_schedule",
    );
  });

  it("answers 400 for an unknown time zone or an empty text", async () => {
    expectInvalid(await parse({ text: "daily", timezone: "Nowhere/Land" }), ["body.timezone"]);
    expectInvalid(await parse({ text: "" }), ["body.text"]);
  });
});
