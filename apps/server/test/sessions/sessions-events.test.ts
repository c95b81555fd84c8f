import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  createAgent,
  expectError,
  expectInvalid,
  message,
  newSession,
  postEvents,
  readLog,
  setPendingActions,
} from "./helpers.js";

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

const session = () => newSession(t, tenant, { agent: agentId });

describe("POST /sessions/:id/events", () => {
  it("appends the batch in order and acknowledges each event with 202", async () => {
    const s = await session();
    const res = await postEvents(t, tenant, s.id, [
      message("one", "k-1"),
      { type: "user.interrupt" },
      message("three"),
    ]);
    expect(res.status).toBe(202);
    expect(res.body.events).toEqual([
      { seq: 1, id: expect.stringMatching(/^evt_/), type: "user.message", idempotencyKey: "k-1", duplicate: false },
      { seq: 2, id: expect.stringMatching(/^evt_/), type: "user.interrupt", duplicate: false },
      { seq: 3, id: expect.stringMatching(/^evt_/), type: "user.message", duplicate: false },
    ]);
    expect(res.body.session).toMatchObject({ id: s.id, status: "idle", lastSeq: 3 });
    const log = await readLog(t, tenant, s.id);
    expect(log.map((e) => [e.seq, e.id, e.type])).toEqual(
      res.body.events.map((e: { seq: number; id: string; type: string }) => [e.seq, e.id, e.type]),
    );
    expect(log[0]).toEqual({
      seq: 1,
      id: res.body.events[0].id,
      type: "user.message",
      createdAt: expect.any(String),
      content: [{ type: "text", text: "one" }],
    });
    expect(log[1]).toEqual({
      seq: 2,
      id: res.body.events[1].id,
      type: "user.interrupt",
      createdAt: expect.any(String),
    });
  });

  it("records a work request for the loop", async () => {
    const s = await session();
    await postEvents(t, tenant, s.id, [message("wake up")]);
    const { rows } = await t.platform.ctx.db.pool.query(
      `SELECT "generation"::int AS g FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
      [s.id],
    );
    expect(rows).toEqual([{ g: 1 }]);
    await postEvents(t, tenant, s.id, [message("again")]);
    const again = await t.platform.ctx.db.pool.query(
      `SELECT "generation"::int AS g FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
      [s.id],
    );
    expect(again.rows).toEqual([{ g: 2 }]);
  });

  it("acknowledges a retried idempotency key as a duplicate of the original entry", async () => {
    const s = await session();
    const first = await postEvents(t, tenant, s.id, [message("hello", "retry-me")]);
    const retry = await postEvents(t, tenant, s.id, [message("hello", "retry-me")]);
    expect(retry.status).toBe(202);
    expect(retry.body.events).toEqual([{ ...first.body.events[0], duplicate: true }]);
    expect((await readLog(t, tenant, s.id)).length).toBe(1);
    // No new work request for a batch that appended nothing.
    const runs = await t.platform.ctx.db.pool.query(
      `SELECT "generation"::int AS g FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
      [s.id],
    );
    expect(runs.rows).toEqual([{ g: 1 }]);
  });

  it("appends only the new events of a batch that mixes retried and new keys", async () => {
    const s = await session();
    const first = await postEvents(t, tenant, s.id, [message("a", "a"), message("b", "b")]);
    const mixed = await postEvents(t, tenant, s.id, [message("b", "b"), message("c", "c"), message("a", "a")]);
    expect(mixed.body.events).toEqual([
      { ...first.body.events[1], duplicate: true },
      { seq: 3, id: expect.any(String), type: "user.message", idempotencyKey: "c", duplicate: false },
      { ...first.body.events[0], duplicate: true },
    ]);
    expect((await readLog(t, tenant, s.id)).map((e) => e.content[0].text)).toEqual(["a", "b", "c"]);
  });

  it("keeps keys per session", async () => {
    const a = await session();
    const b = await session();
    await postEvents(t, tenant, a.id, [message("x", "same-key")]);
    const res = await postEvents(t, tenant, b.id, [message("x", "same-key")]);
    expect(res.body.events[0].duplicate).toBe(false);
  });

  it("stores one entry when concurrent retries carry the same key", async () => {
    const s = await session();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => postEvents(t, tenant, s.id, [message("once", "concurrent-key")])),
    );
    for (const r of results) expect(r.status).toBe(202);
    const acks = results.map((r) => r.body.events[0]);
    expect(new Set(acks.map((a) => a.seq))).toEqual(new Set([1]));
    expect(new Set(acks.map((a) => a.id)).size).toBe(1);
    expect(acks.filter((a) => !a.duplicate).length).toBe(1);
    expect((await readLog(t, tenant, s.id)).length).toBe(1);
  });

  it("keeps seq gap-free and batches contiguous under 20 concurrent posts of 3 events", async () => {
    const s = await session();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postEvents(t, tenant, s.id, [message(`${i}-a`), message(`${i}-b`), message(`${i}-c`)]),
      ),
    );
    for (const r of results) {
      expect(r.status).toBe(202);
      const seqs = r.body.events.map((e: { seq: number }) => e.seq);
      expect(seqs).toEqual([seqs[0], seqs[0] + 1, seqs[0] + 2]);
    }
    const log = await readLog(t, tenant, s.id);
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (let i = 0; i < 60; i += 3) {
      const prefix = log[i].content[0].text.split("-")[0];
      expect(log.slice(i, i + 3).map((e) => e.content[0].text)).toEqual([`${prefix}-a`, `${prefix}-b`, `${prefix}-c`]);
    }
    const head = await t.http.get(`${tenant.base}/sessions/${s.id}`).set(tenant.auth);
    expect(head.body.lastSeq).toBe(60);
  });

  it("refuses invalid events with field paths and appends nothing", async () => {
    const s = await session();
    const res = await postEvents(t, tenant, s.id, [
      message("fine"),
      { type: "user.message", content: [] },
      { type: "user.unknown" },
      { type: "user.message", content: [{ type: "image", url: "x" }] },
      { type: "user.tool_confirmation", toolUseId: "evt_1", result: "maybe" },
      { type: "user.interrupt", extra: 1 },
      { type: "user.message", content: [{ type: "text", text: "" }] },
      { type: "user.tool_confirmation", toolUseId: "evt_1", result: "allow", denyMessage: "no" },
      { type: "user.custom_tool_result", content: [] },
      { ...message("k"), idempotencyKey: "x".repeat(256) },
    ]);
    expectInvalid(res, [
      "body.events.1.content",
      "body.events.2.type",
      "body.events.3.content.0.type",
      "body.events.4.result",
      "body.events.5",
      "body.events.6.content.0.text",
      "body.events.7.denyMessage",
      "body.events.8.customToolUseId",
      "body.events.9.idempotencyKey",
    ]);
    expect(await readLog(t, tenant, s.id)).toEqual([]);
  });

  it("refuses an empty batch, a batch over 100 events and a key repeated within a batch", async () => {
    const s = await session();
    expectInvalid(await postEvents(t, tenant, s.id, []), ["body.events"]);
    expectInvalid(
      await postEvents(
        t,
        tenant,
        s.id,
        Array.from({ length: 101 }, () => message("x")),
      ),
      ["body.events"],
    );
    expectInvalid(await postEvents(t, tenant, s.id, [message("a", "dup"), message("b", "dup")]), [
      "body.events.1.idempotencyKey",
    ]);
    expectInvalid(await t.http.post(`${tenant.base}/sessions/${s.id}/events`).set(tenant.auth).send({}), [
      "body.events",
    ]);
  });

  it("answers 404 session.not_found for a missing session", async () => {
    expectError(await postEvents(t, tenant, "sess_missing", [message("x")]), 404, "session.not_found");
  });

  it("refuses events on an archived session with 409 session.archived", async () => {
    const s = await session();
    await t.http.post(`${tenant.base}/sessions/${s.id}/archive`).set(tenant.auth);
    expectError(await postEvents(t, tenant, s.id, [message("too late")]), 409, "session.archived");
    expect(await readLog(t, tenant, s.id)).toEqual([]);
  });
});

describe("answers to tool uses", () => {
  it("refuses a confirmation for a tool use that is not pending, naming it", async () => {
    const s = await session();
    const res = await postEvents(t, tenant, s.id, [
      message("before"),
      { type: "user.tool_confirmation", toolUseId: "evt_not_pending", result: "allow" },
    ]);
    expectError(res, 409, "session.invalid_event");
    expect(res.body.error.message).toContain("evt_not_pending");
    expect(await readLog(t, tenant, s.id)).toEqual([]);
  });

  it("accepts a confirmation and a custom tool result for pending tool uses, once each", async () => {
    const s = await session();
    await setPendingActions(t, s.id, [
      { toolUseId: "evt_confirm", kind: "confirmation", name: "notes__write_note" },
      { toolUseId: "evt_custom", kind: "custom_tool", name: "lookup_order" },
    ]);
    const wrongKind = await postEvents(t, tenant, s.id, [
      { type: "user.custom_tool_result", customToolUseId: "evt_confirm", content: [{ type: "text", text: "x" }] },
    ]);
    expectError(wrongKind, 409, "session.invalid_event");
    const twice = await postEvents(t, tenant, s.id, [
      { type: "user.tool_confirmation", toolUseId: "evt_confirm", result: "allow" },
      { type: "user.tool_confirmation", toolUseId: "evt_confirm", result: "deny" },
    ]);
    expectError(twice, 409, "session.invalid_event");

    const ok = await postEvents(t, tenant, s.id, [
      {
        type: "user.tool_confirmation",
        toolUseId: "evt_confirm",
        result: "deny",
        denyMessage: "not now",
        idempotencyKey: "c1",
      },
      {
        type: "user.custom_tool_result",
        customToolUseId: "evt_custom",
        content: [{ type: "text", text: "order 42 shipped" }],
        isError: false,
      },
    ]);
    expect(ok.status).toBe(202);
    const log = await readLog(t, tenant, s.id);
    expect(log).toEqual([
      {
        seq: 1,
        id: expect.any(String),
        type: "user.tool_confirmation",
        createdAt: expect.any(String),
        toolUseId: "evt_confirm",
        result: "deny",
        denyMessage: "not now",
      },
      {
        seq: 2,
        id: expect.any(String),
        type: "user.custom_tool_result",
        createdAt: expect.any(String),
        customToolUseId: "evt_custom",
        content: [{ type: "text", text: "order 42 shipped" }],
        isError: false,
      },
    ]);
    // Answered but not yet consumed by the loop: a second answer is refused, a retry of the first is a duplicate.
    const again = await postEvents(t, tenant, s.id, [
      { type: "user.tool_confirmation", toolUseId: "evt_confirm", result: "allow" },
    ]);
    expectError(again, 409, "session.invalid_event");
    const retry = await postEvents(t, tenant, s.id, [
      {
        type: "user.tool_confirmation",
        toolUseId: "evt_confirm",
        result: "deny",
        denyMessage: "not now",
        idempotencyKey: "c1",
      },
    ]);
    expect(retry.status).toBe(202);
    expect(retry.body.events[0]).toMatchObject({ seq: 1, duplicate: true });
  });
});

describe("GET /sessions/:id/events", () => {
  it("pages with afterSeq to the end", async () => {
    const s = await session();
    for (let batch = 0; batch < 5; batch++) {
      const events = Array.from({ length: 50 }, (_, i) => message(`m${batch * 50 + i + 1}`));
      expect((await postEvents(t, tenant, s.id, events)).status).toBe(202);
    }
    const seen: number[] = [];
    const pages: { hasMore: boolean; nextAfterSeq: number; count: number }[] = [];
    let afterSeq = 0;
    for (;;) {
      const res = await t.http
        .get(`${tenant.base}/sessions/${s.id}/events?afterSeq=${afterSeq}&limit=100`)
        .set(tenant.auth);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { seq: number }) => e.seq));
      pages.push({ hasMore: res.body.hasMore, nextAfterSeq: res.body.nextAfterSeq, count: res.body.data.length });
      if (!res.body.hasMore) break;
      afterSeq = res.body.nextAfterSeq;
    }
    expect(pages).toEqual([
      { hasMore: true, nextAfterSeq: 100, count: 100 },
      { hasMore: true, nextAfterSeq: 200, count: 100 },
      { hasMore: false, nextAfterSeq: 250, count: 50 },
    ]);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));

    const end = await t.http.get(`${tenant.base}/sessions/${s.id}/events?afterSeq=250`).set(tenant.auth);
    expect(end.body).toEqual({ data: [], hasMore: false, nextAfterSeq: 250 });
    // The default page is the maximum (1000): this whole log comes back in one page.
    const defaults = await t.http.get(`${tenant.base}/sessions/${s.id}/events`).set(tenant.auth);
    expect(defaults.body.data.length).toBe(250);
    expect(defaults.body.hasMore).toBe(false);
    expect(defaults.body.data[0].seq).toBe(1);
    const exact = await t.http.get(`${tenant.base}/sessions/${s.id}/events?afterSeq=200&limit=50`).set(tenant.auth);
    expect({ hasMore: exact.body.hasMore, next: exact.body.nextAfterSeq }).toEqual({ hasMore: false, next: 250 });
  });

  it("reads a page again as it was while the log is unchanged, and anew once it grows; never for another project", async () => {
    const s = await session();
    await postEvents(t, tenant, s.id, [message("a"), message("b")]);
    const read = async (who = tenant) =>
      t.http.get(`${who.base}/sessions/${s.id}/events?afterSeq=0&limit=2`).set(who.auth);
    const first = await read();
    expect((await read()).body).toEqual(first.body);
    expect(first.body).toMatchObject({ hasMore: false, nextAfterSeq: 2 });
    await postEvents(t, tenant, s.id, [message("c")]);
    const grown = await read();
    expect(grown.body.data).toEqual(first.body.data);
    expect(grown.body).toMatchObject({ hasMore: true, nextAfterSeq: 2 });
    // Another project, asking for the same page by the session's id: its own path, its own key.
    expectError(await read(await createTenant(t.platform.ctx.db.prisma)), 404, "session.not_found");
    await t.http.delete(`${tenant.base}/sessions/${s.id}`).set(tenant.auth);
    expectError(await read(), 404, "session.not_found");
  });

  it("validates afterSeq and limit", async () => {
    const s = await session();
    const base = `${tenant.base}/sessions/${s.id}/events`;
    expectInvalid(await t.http.get(`${base}?limit=1001`).set(tenant.auth), ["query.limit"]);
    expectInvalid(await t.http.get(`${base}?limit=0`).set(tenant.auth), ["query.limit"]);
    expectInvalid(await t.http.get(`${base}?afterSeq=-1`).set(tenant.auth), ["query.afterSeq"]);
    expectInvalid(await t.http.get(`${base}?afterSeq=abc`).set(tenant.auth), ["query.afterSeq"]);
    expect((await t.http.get(`${base}?limit=1000`).set(tenant.auth)).status).toBe(200);
  });

  it("answers 404 for a missing session", async () => {
    expectError(
      await t.http.get(`${tenant.base}/sessions/sess_missing/events`).set(tenant.auth),
      404,
      "session.not_found",
    );
  });
});
