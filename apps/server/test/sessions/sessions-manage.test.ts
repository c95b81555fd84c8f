import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, expectError, expectInvalid, message, newSession, postEvents, readLog } from "./helpers.js";

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

const rename = (id: string, body: unknown) =>
  t.http
    .patch(`${tenant.base}/sessions/${id}`)
    .set(tenant.auth)
    .send(body as object);

describe("PATCH /sessions/:id (rename)", () => {
  it("trims the title, writes nothing to the log and leaves updatedAt alone", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("hi")] });
    const res = await rename(s.id, { title: "   Quarterly report  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...s, title: "Quarterly report" });
    expect((await readLog(t, tenant, s.id)).length).toBe(1);
    const cleared = await rename(s.id, { title: null });
    expect(cleared.body).toEqual({ ...s, title: null });
  });

  it("does not wake the worker", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    await rename(s.id, { title: "label" });
    const runs = await t.platform.ctx.db.pool.query(`SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`, [
      s.id,
    ]);
    expect(runs.rowCount).toBe(0);
  });

  it("accepts exactly 200 characters after trimming and refuses blank, longer and other fields", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    expect((await rename(s.id, { title: ` ${"x".repeat(200)} ` })).body.title).toBe("x".repeat(200));
    expectInvalid(await rename(s.id, { title: "    " }), ["body.title"]);
    expectInvalid(await rename(s.id, { title: "x".repeat(201) }), ["body.title"]);
    expectInvalid(await rename(s.id, {}), ["body.title"]);
    expectInvalid(await rename(s.id, { title: "ok", metadata: {} }), ["body"]);
    expectInvalid(await rename(s.id, { title: 5 }), ["body.title"]);
  });

  it("works on archived sessions", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    await t.http.post(`${tenant.base}/sessions/${s.id}/archive`).set(tenant.auth);
    const res = await rename(s.id, { title: "archived but renamed" });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("archived but renamed");
    expect(res.body.archivedAt).not.toBeNull();
  });

  it("answers 404 for a missing session", async () => {
    expectError(await rename("sess_missing", { title: "x" }), 404, "session.not_found");
  });
});

describe("POST /sessions/:id/archive", () => {
  it("archives once and is idempotent", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const first = await t.http.post(`${tenant.base}/sessions/${s.id}/archive`).set(tenant.auth);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...s, archivedAt: expect.any(String) });
    const second = await t.http.post(`${tenant.base}/sessions/${s.id}/archive`).set(tenant.auth);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expectError(await postEvents(t, tenant, s.id, [message("x")]), 409, "session.archived");
  });

  it("answers 404 for a missing session", async () => {
    expectError(
      await t.http.post(`${tenant.base}/sessions/sess_missing/archive`).set(tenant.auth),
      404,
      "session.not_found",
    );
  });
});

describe("POST /sessions/:id/unarchive", () => {
  it("makes an archived session accept events again, and is idempotent", async () => {
    const s = await newSession(t, tenant, { agent: agentId, title: "back again" });
    await t.http.post(`${tenant.base}/sessions/${s.id}/archive`).set(tenant.auth);
    const res = await t.http.post(`${tenant.base}/sessions/${s.id}/unarchive`).set(tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...s, archivedAt: null });
    const again = await t.http.post(`${tenant.base}/sessions/${s.id}/unarchive`).set(tenant.auth);
    expect(again.body).toEqual(res.body);
    expect((await postEvents(t, tenant, s.id, [message("hello again")])).status).toBe(202);
  });

  it("answers 404 for a missing session and for another project's", async () => {
    expectError(
      await t.http.post(`${tenant.base}/sessions/sess_missing/unarchive`).set(tenant.auth),
      404,
      "session.not_found",
    );
    const s = await newSession(t, tenant, { agent: agentId });
    const other = await t.newTenant();
    expectError(
      await t.http.post(`${other.base}/sessions/${s.id}/unarchive`).set(other.auth),
      404,
      "session.not_found",
    );
  });
});

describe("DELETE /sessions/:id", () => {
  it("removes the session and its log; 404 afterwards", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("a"), message("b")] });
    const res = await t.http.delete(`${tenant.base}/sessions/${s.id}`).set(tenant.auth);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expectError(await t.http.get(`${tenant.base}/sessions/${s.id}`).set(tenant.auth), 404, "session.not_found");
    expectError(await t.http.get(`${tenant.base}/sessions/${s.id}/events`).set(tenant.auth), 404, "session.not_found");
    expectError(await postEvents(t, tenant, s.id, [message("x")]), 404, "session.not_found");
    expectError(await t.http.delete(`${tenant.base}/sessions/${s.id}`).set(tenant.auth), 404, "session.not_found");
    const rows = await t.platform.ctx.db.pool.query('SELECT 1 FROM session_events WHERE "sessionId" = $1', [s.id]);
    expect(rows.rowCount).toBe(0);
    const runs = await t.platform.ctx.db.pool.query(`SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`, [
      s.id,
    ]);
    expect(runs.rowCount).toBe(0);
  });
});

describe("GET /sessions (list)", () => {
  let own: Tenant;
  let agentA: string;
  let agentB: string;
  const made: Record<string, string> = {};

  beforeAll(async () => {
    own = await t.newTenant();
    agentA = (await createAgent(t, own, { name: "A" })).id;
    agentB = (await createAgent(t, own, { name: "B" })).id;
    const plan: [string, string, Record<string, string>][] = [
      ["a1", agentA, { team: "red", tier: "gold" }],
      ["a2", agentA, { team: "blue" }],
      ["b1", agentB, { team: "red" }],
      ["a3", agentA, { team: "red", tier: "silver" }],
      ["b2", agentB, {}],
    ];
    for (const [name, agent, metadata] of plan) {
      made[name] = (await newSession(t, own, { agent, title: name, metadata })).id;
    }
    await own_running(made.a3!);
  });

  async function own_running(id: string) {
    await t.platform.ctx.db.pool.query(`UPDATE sessions SET status = 'running' WHERE id = $1`, [id]);
  }

  const titles = async (query: string) => {
    const res = await t.http.get(`${own.base}/sessions${query}`).set(own.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((s: { title: string }) => s.title);
  };

  it("lists newest first", async () => {
    expect(await titles("")).toEqual(["b2", "a3", "b1", "a2", "a1"]);
  });

  it("filters by agent, status and metadata (containment of every pair)", async () => {
    expect(await titles(`?agent=${agentA}`)).toEqual(["a3", "a2", "a1"]);
    expect(await titles("?status=running")).toEqual(["a3"]);
    expect(await titles("?status=idle")).toEqual(["b2", "b1", "a2", "a1"]);
    expect(await titles("?metadata[team]=red")).toEqual(["a3", "b1", "a1"]);
    expect(await titles("?metadata[team]=red&metadata[tier]=gold")).toEqual(["a1"]);
    expect(await titles(`?metadata[team]=red&agent=${agentB}`)).toEqual(["b1"]);
    expect(await titles("?metadata[team]=green")).toEqual([]);
  });

  it("filters by stop reason: waiting for you (requires_action), errors", async () => {
    await t.platform.ctx.db.pool.query(`UPDATE sessions SET "stopReason" = 'requires_action' WHERE id = $1`, [made.a2]);
    await t.platform.ctx.db.pool.query(`UPDATE sessions SET "stopReason" = 'error' WHERE id = ANY($1)`, [
      [made.a1, made.b2],
    ]);
    expect(await titles("?stopReason=requires_action")).toEqual(["a2"]);
    expect(await titles("?stopReason=error")).toEqual(["b2", "a1"]);
    expect(await titles(`?stopReason=error&agent=${agentA}`)).toEqual(["a1"]);
    expect(await titles("?stopReason=max_turns")).toEqual([]);
    expectInvalid(await t.http.get(`${own.base}/sessions?stopReason=waiting`).set(own.auth), ["query.stopReason"]);
  });

  it("searches titles (case-insensitive substring, no pattern characters) and ids", async () => {
    const renamed = await t.http
      .patch(`${own.base}/sessions/${made.b2}`)
      .set(own.auth)
      .send({ title: "Refund for ORDER 100%_done" });
    expect(renamed.status).toBe(200);
    expect(await titles("?search=order")).toEqual(["Refund for ORDER 100%_done"]);
    expect(await titles("?search=100%25_")).toEqual(["Refund for ORDER 100%_done"]);
    expect(await titles("?search=%25")).toEqual(["Refund for ORDER 100%_done"]);
    expect(await titles("?search=_")).toEqual(["Refund for ORDER 100%_done"]);
    expect(await titles(`?search=${made.a1}`)).toEqual(["a1"]);
    expect(await titles("?search=nothing-like-it")).toEqual([]);
    expectInvalid(await t.http.get(`${own.base}/sessions?search=${"x".repeat(201)}`).set(own.auth), ["query.search"]);
    // A cursor is bound to the search too.
    const page = await t.http.get(`${own.base}/sessions?search=a&limit=1`).set(own.auth);
    expect(page.body.hasMore).toBe(true);
    expectInvalid(
      await t.http.get(`${own.base}/sessions?search=b&limit=1&cursor=${page.body.nextCursor}`).set(own.auth),
      ["query.cursor"],
    );
    await t.http.patch(`${own.base}/sessions/${made.b2}`).set(own.auth).send({ title: "b2" });
  });

  it("filters archived sessions", async () => {
    await t.http.post(`${own.base}/sessions/${made.b1}/archive`).set(own.auth);
    expect(await titles("?archived=true")).toEqual(["b1"]);
    expect(await titles("?archived=false")).toEqual(["b2", "a3", "a2", "a1"]);
  });

  it("walks pages with a cursor bound to the filters", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?agent=${agentA}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const res = await t.http.get(`${own.base}/sessions${q}`).set(own.auth);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((s: { title: string }) => s.title));
      expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(["a3", "a2", "a1"]);
    expect(pages).toBe(2);

    const first = await t.http.get(`${own.base}/sessions?agent=${agentA}&limit=1`).set(own.auth);
    const next = first.body.nextCursor as string;
    expectInvalid(await t.http.get(`${own.base}/sessions?agent=${agentB}&limit=1&cursor=${next}`).set(own.auth), [
      "query.cursor",
    ]);
    expectInvalid(await t.http.get(`${own.base}/sessions?limit=1&cursor=${next}`).set(own.auth), ["query.cursor"]);
    expectInvalid(
      await t.http.get(`${own.base}/sessions?agent=${agentA}&status=idle&limit=1&cursor=${next}`).set(own.auth),
      ["query.cursor"],
    );
    // The same filters in another order are the same filter set.
    const meta = await t.http.get(`${own.base}/sessions?metadata[team]=red&metadata[tier]=gold&limit=1`).set(own.auth);
    expect(meta.status).toBe(200);
    const metaFirst = await t.http.get(`${own.base}/sessions?metadata[team]=red&limit=1`).set(own.auth);
    const reordered = await t.http
      .get(`${own.base}/sessions?limit=1&metadata[team]=red&cursor=${metaFirst.body.nextCursor}`)
      .set(own.auth);
    expect(reordered.status).toBe(200);
    expectInvalid(
      await t.http
        .get(`${own.base}/sessions?limit=1&metadata[team]=blue&cursor=${metaFirst.body.nextCursor}`)
        .set(own.auth),
      ["query.cursor"],
    );
  });

  it("validates the query", async () => {
    expectInvalid(await t.http.get(`${own.base}/sessions?limit=101`).set(own.auth), ["query.limit"]);
    expectInvalid(await t.http.get(`${own.base}/sessions?status=paused`).set(own.auth), ["query.status"]);
    expectInvalid(await t.http.get(`${own.base}/sessions?cursor=garbage`).set(own.auth), ["query.cursor"]);
    expectInvalid(await t.http.get(`${own.base}/sessions?metadata[a]=1&metadata[a]=2`).set(own.auth), [
      "query.metadata.a",
    ]);
    const many = Array.from({ length: 65 }, (_, i) => `metadata[k${i}]=v`).join("&");
    expectInvalid(await t.http.get(`${own.base}/sessions?${many}`).set(own.auth), ["query.metadata"]);
    const longKey = await t.http.get(`${own.base}/sessions?metadata[${"k".repeat(65)}]=v`).set(own.auth);
    expectError(longKey, 400, "request.invalid");
    expectInvalid(await t.http.get(`${own.base}/sessions?metadata[team]=${"v".repeat(513)}`).set(own.auth), [
      "query.metadata.team",
    ]);
  });
});

describe("security", () => {
  it("answers 401 without a key or with a bad key on every session route", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const routes: [string, string][] = [
      ["post", `${tenant.base}/sessions`],
      ["get", `${tenant.base}/sessions`],
      ["get", `${tenant.base}/sessions/${s.id}`],
      ["patch", `${tenant.base}/sessions/${s.id}`],
      ["post", `${tenant.base}/sessions/${s.id}/archive`],
      ["delete", `${tenant.base}/sessions/${s.id}`],
      ["post", `${tenant.base}/sessions/${s.id}/events`],
      ["get", `${tenant.base}/sessions/${s.id}/events`],
      ["get", `${tenant.base}/sessions/${s.id}/events/stream`],
    ];
    for (const [method, path] of routes) {
      const agentCall = t.http as unknown as Record<string, (p: string) => ReturnType<typeof t.http.get>>;
      expectError(await agentCall[method]!(path), 401, "auth.unauthorized");
      expectError(await agentCall[method]!(path).set({ Authorization: "Bearer ap_wrong" }), 401, "auth.unauthorized");
    }
  });

  it("answers 404 to another project's key, and for another project's session through one's own project", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("private")] });
    const other = await t.newTenant();
    const onTheirPath: [string, string, object?][] = [
      ["get", `${tenant.base}/sessions/${s.id}`],
      ["patch", `${tenant.base}/sessions/${s.id}`, { title: "mine now" }],
      ["post", `${tenant.base}/sessions/${s.id}/archive`],
      ["delete", `${tenant.base}/sessions/${s.id}`],
      ["post", `${tenant.base}/sessions/${s.id}/events`, { events: [message("hijack")] }],
      ["get", `${tenant.base}/sessions/${s.id}/events`],
      ["get", `${tenant.base}/sessions/${s.id}/events/stream`],
    ];
    const agentCall = t.http as unknown as Record<string, (p: string) => ReturnType<typeof t.http.get>>;
    for (const [method, path, body] of onTheirPath) {
      const req = agentCall[method]!(path).set(other.auth);
      expectError(await (body ? req.send(body) : req), 404, "session.not_found");
    }
    expectError(await t.http.get(`${tenant.base}/sessions`).set(other.auth), 404, "project.not_found");
    expectError(
      await t.http.post(`${tenant.base}/sessions`).set(other.auth).send({ agent: agentId }),
      404,
      "project.not_found",
    );
    // Their own project path with this project's session id.
    for (const path of [`${other.base}/sessions/${s.id}`, `${other.base}/sessions/${s.id}/events`]) {
      expectError(await t.http.get(path).set(other.auth), 404, "session.not_found");
    }
    expectError(await t.http.delete(`${other.base}/sessions/${s.id}`).set(other.auth), 404, "session.not_found");
    const list = await t.http.get(`${other.base}/sessions`).set(other.auth);
    expect(list.body.data).toEqual([]);
    // Nothing changed.
    const still = await t.http.get(`${tenant.base}/sessions/${s.id}`).set(tenant.auth);
    expect(still.body).toEqual(s);
    expect((await readLog(t, tenant, s.id)).length).toBe(1);
  });
});
