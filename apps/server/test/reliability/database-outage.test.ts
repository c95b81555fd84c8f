import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import { expectError } from "../support/expect-error.js";
import { createTenant } from "../support/factories.js";
import { startTcpRelay, type TcpRelay } from "../support/tcp-relay.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The platform reaches PostgreSQL through a relay that the test cuts (every connection dropped, new ones refused) and
// restores on the same port: an outage as the platform sees one, with the shared test server left running.
let relay: TcpRelay;
let t: TestApp;

beforeAll(async () => {
  const admin = new URL(inject("pgAdminUrl"));
  relay = await startTcpRelay({ host: admin.hostname, port: Number(admin.port || 5432) });
  t = await startTestApp({
    role: "all",
    env: { DATABASE_CONNECT_TIMEOUT_MS: "1000" },
    databaseUrl: (url) => {
      const relayed = new URL(url);
      relayed.port = String(relay.port);
      return relayed.toString();
    },
  });
});
afterAll(async () => {
  await relay?.restore().catch(() => {});
  await t?.close();
  await relay?.close();
});

describe("a database outage", () => {
  it("answers 503 service.unavailable with Retry-After while the database is unreachable, and recovers by itself", async () => {
    const { tenant } = t;
    const before = await createAgent(t, tenant, { name: "before the outage" });
    // A key the process has not seen yet: its lookup needs the database too.
    const unseen = await createTenant(t.platform.ctx.db.prisma);

    await relay.cut();
    const list = await t.http.get(`${tenant.base}/agents`).set(tenant.auth);
    expectError(list, 503, "service.unavailable");
    expect(list.headers["retry-after"]).toBe("2");
    expect(list.body.error.message).not.toMatch(/at .*\.js|ECONN|Connection terminated/);
    const create = await t.http
      .post(`${tenant.base}/agents`)
      .set(tenant.auth)
      .send({ name: "during", model: "builtin/echo" });
    expectError(create, 503, "service.unavailable");
    expectError(await t.http.get(`${unseen.base}/agents`).set(unseen.auth), 503, "service.unavailable");
    const unready = await t.http.get("/readyz");
    expect(unready.status).toBe(503);
    expect(unready.body).toMatchObject({ status: "unavailable", checks: { database: "unreachable" } });

    await relay.restore();
    await waitUntil("the API to recover", async () =>
      (await t.http.get(`${tenant.base}/agents`).set(tenant.auth)).status === 200 ? true : undefined,
    );
    // Ready again once the listener and the job runner work too, not only the pool (they follow within a second or so).
    const ready = await waitUntil("the process to be ready", async () => {
      const res = await t.http.get("/readyz");
      return res.status === 200 ? res : undefined;
    });
    expect(ready.body).toMatchObject({ status: "ready", checks: { database: "ok", listener: "ok", jobs: "ok" } });
    // Information only: whether this worker's browsers can be confined here (it never makes the process unready).
    expect(ready.body.details.browser).toMatch(/^(confined|unconfined|off)/);
    const after = await t.http.get(`${tenant.base}/agents/${before.id}`).set(tenant.auth);
    expect(after.status).toBe(200);
    expect(after.body.name).toBe("before the outage");
    const nothingHalfWritten = await t.http.get(`${tenant.base}/agents?name=during`).set(tenant.auth);
    expect(nothingHalfWritten.body.data).toEqual([]);

    // The worker and the notification listener are back too: a new turn runs to its end.
    const session = await newSession(t, tenant, { agent: before.id, events: [message("after the outage")] });
    const log = await waitForIdle(t, tenant, session.id, 1, 30_000);
    expect(log.find((e) => e.type === "agent.message")?.content).toEqual([{ type: "text", text: "after the outage" }]);
  });
});
