import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, walkPages } from "./helpers.js";

// Authentication on every route of the contract: test/security/auth-matrix.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("API key listing", () => {
  it("walks every key of the workspace exactly once, newest first", async () => {
    const tenant = await t.newTenant();
    const ids: string[] = [];
    const first = await t.http.get("/v1/api-keys").set(tenant.auth);
    ids.push(...first.body.data.map((k: { id: string }) => k.id));
    for (let i = 0; i < 6; i++) {
      const res = await t.http
        .post("/v1/api-keys")
        .set(tenant.auth)
        .send({ name: `k${i}`, projectId: tenant.projectId });
      ids.push(res.body.id);
    }
    const { items } = await walkPages(t.http, tenant.auth, "/v1/api-keys", 4);
    expectEachOnceNewestFirst(
      items.map((k) => k.id),
      ids,
    );
    for (const key of items) expect(key).not.toHaveProperty("key");
  });
});

describe("Idempotency-Key on resource writes", () => {
  it("replays the stored response for the same key and body, and refuses another body", async () => {
    const headers = { ...t.tenant.auth, "Idempotency-Key": "create-vault-1" };
    const first = await t.http
      .post("/v1/vaults")
      .set(headers)
      .send({ name: "idem", secrets: { K: "v" } });
    expect(first.status).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const replay = await t.http
      .post("/v1/vaults")
      .set(headers)
      .send({ name: "idem", secrets: { K: "v" } });
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    const vaults = await t.http.get("/v1/vaults?name=idem").set(t.tenant.auth);
    expect(vaults.body.data).toHaveLength(1);

    const other = await t.http.post("/v1/vaults").set(headers).send({ name: "idem-2" });
    expectError(other, 409, "idempotency.conflict");
  });

  it("replays project-scoped creates too, and does not mix keys between workspaces", async () => {
    const headers = { ...t.tenant.auth, "Idempotency-Key": "dataset-create" };
    const body = { name: "idem-ds", cases: [{ input: "q" }] };
    const first = await t.http.post(`${t.tenant.base}/datasets`).set(headers).send(body);
    const replay = await t.http.post(`${t.tenant.base}/datasets`).set(headers).send(body);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body.id).toBe(first.body.id);
    const list = await t.http.get(`${t.tenant.base}/datasets?name=idem-ds`).set(t.tenant.auth);
    expect(list.body.data).toHaveLength(1);
    expectError(
      await t.http
        .post(`${t.tenant.base}/datasets/${first.body.id}/cases`)
        .set(headers)
        .send({ cases: [{ input: "x" }] }),
      409,
      "idempotency.conflict",
    );

    const other = await t.newTenant();
    const theirs = await t.http
      .post(`${other.base}/datasets`)
      .set({ ...other.auth, "Idempotency-Key": "dataset-create" })
      .send(body);
    expect(theirs.status).toBe(201);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  it("refuses a key whose first request is still in progress, and lets a request take over a key abandoned by a killed process", async () => {
    const tenant = await t.newTenant();
    const pool = t.platform.ctx.db.pool;
    const body = { name: "vault-after-a-crash" };
    // What a process killed mid-request leaves behind: the key marked in progress, with no response ever stored.
    const mark = (key: string, ageSeconds: number) =>
      pool.query(
        `INSERT INTO idempotency_records ("workspaceId", "key", "method", "path", "bodyHash", "status", "body", "createdAt")
         VALUES ($1, $2, 'POST', '/v1/vaults', $3, 0, 'null'::jsonb, now() - make_interval(secs => $4))`,
        [tenant.workspaceId, key, createHash("sha256").update(JSON.stringify(body)).digest("hex"), ageSeconds],
      );
    await mark("recent", 5);
    const busy = await t.http
      .post("/v1/vaults")
      .set({ ...tenant.auth, "Idempotency-Key": "recent" })
      .send(body);
    expectError(busy, 409, "idempotency.in_progress");

    await mark("abandoned", 600);
    const first = await t.http
      .post("/v1/vaults")
      .set({ ...tenant.auth, "Idempotency-Key": "abandoned" })
      .send(body);
    expect(first.status).toBe(201);
    const replay = await t.http
      .post("/v1/vaults")
      .set({ ...tenant.auth, "Idempotency-Key": "abandoned" })
      .send(body);
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body.id).toBe(first.body.id);
  });
});
