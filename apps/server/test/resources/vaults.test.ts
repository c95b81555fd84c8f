import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openVaultSecrets } from "../../src/vaults/vault-secrets.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const SECRET_A = "sk-live-AAAA-value-never-returned";
const SECRET_B = "hunter2-BBBB-value-never-returned";

describe("vaults", () => {
  it("creates a vault whose values never appear in any response", async () => {
    const created = await t.http
      .post("/v1/vaults")
      .set(t.tenant.auth)
      .send({ name: "payments", description: "Stripe", secrets: { STRIPE_KEY: SECRET_A, WEBHOOK_SECRET: SECRET_B } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^vault_[0-9a-z]{26}$/),
      workspaceId: t.tenant.workspaceId,
      name: "payments",
      description: "Stripe",
      secretKeys: ["STRIPE_KEY", "WEBHOOK_SECRET"],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    const responses = [
      created,
      await t.http.get(`/v1/vaults/${id}`).set(t.tenant.auth),
      await t.http.get("/v1/vaults").set(t.tenant.auth),
      await t.http
        .put(`/v1/vaults/${id}/secrets`)
        .set(t.tenant.auth)
        .send({ secrets: { EXTRA: "x-extra-1" } }),
    ];
    for (const res of responses) {
      expect(res.status).toBeLessThan(300);
      expect(res.text).not.toContain(SECRET_A);
      expect(res.text).not.toContain(SECRET_B);
      expect(res.text).not.toContain("x-extra-1");
    }
    const row = await t.platform.ctx.db.prisma.vault.findUniqueOrThrow({ where: { id } });
    expect(row.sealed).not.toContain(SECRET_A);
    expect(await openVaultSecrets(t.platform.ctx, t.tenant.workspaceId, id)).toEqual({
      STRIPE_KEY: SECRET_A,
      WEBHOOK_SECRET: SECRET_B,
      EXTRA: "x-extra-1",
    });
  });

  it("merges secrets by key: sets, replaces and removes, keeping the others", async () => {
    const vault = (
      await t.http
        .post("/v1/vaults")
        .set(t.tenant.auth)
        .send({ name: "merge", secrets: { A: "1", B: "2", C: "3" } })
    ).body;
    const res = await t.http
      .put(`/v1/vaults/${vault.id}/secrets`)
      .set(t.tenant.auth)
      .send({ secrets: { B: "two", D: "4" }, remove: ["C", "NOT_THERE"] });
    expect(res.status).toBe(200);
    expect(res.body.secretKeys).toEqual(["A", "B", "D"]);
    expect(await openVaultSecrets(t.platform.ctx, t.tenant.workspaceId, vault.id)).toEqual({
      A: "1",
      B: "two",
      D: "4",
    });
  });

  it("keeps every key under concurrent secret updates", async () => {
    const vault = (await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "concurrent" })).body;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.http
          .put(`/v1/vaults/${vault.id}/secrets`)
          .set(t.tenant.auth)
          .send({ secrets: { [`K${i}`]: `v${i}` } }),
      ),
    );
    for (const res of results) expect(res.status).toBe(200);
    const secrets = await openVaultSecrets(t.platform.ctx, t.tenant.workspaceId, vault.id);
    expect(Object.keys(secrets).sort()).toEqual(["K0", "K1", "K2", "K3", "K4", "K5", "K6", "K7"]);
  });

  it("validates bodies with field paths", async () => {
    expectInvalid(
      await t.http
        .post("/v1/vaults")
        .set(t.tenant.auth)
        .send({ name: "vault_looks_like_an_id", secrets: { "bad key": "x", EMPTY: "" } }),
      ["body.name", "body.secrets.bad key", "body.secrets.EMPTY"],
    );
    const vault = (await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "validation" })).body;
    expectInvalid(await t.http.put(`/v1/vaults/${vault.id}/secrets`).set(t.tenant.auth).send({}), ["body"]);
    expectInvalid(
      await t.http
        .put(`/v1/vaults/${vault.id}/secrets`)
        .set(t.tenant.auth)
        .send({ secrets: { A: "1" }, remove: ["A"] }),
      ["body.remove"],
    );
    expectInvalid(
      await t.http
        .post("/v1/vaults")
        .set(t.tenant.auth)
        .send({ name: "big", secrets: { A: "é".repeat(8 * 1024 + 1) } }),
      ["body.secrets.A"],
    );
  });

  it("refuses more secrets than a vault holds, counting the merge", async () => {
    const secrets = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`S${i}`, "v"]));
    const vault = (await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "full", secrets })).body;
    expect(vault.secretKeys).toHaveLength(100);
    const res = await t.http
      .put(`/v1/vaults/${vault.id}/secrets`)
      .set(t.tenant.auth)
      .send({ secrets: { ONE_MORE: "v" } });
    expectInvalid(res, ["body.secrets"]);
  });

  it("refuses a duplicate name in the workspace with 409 vault.name_taken", async () => {
    await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "dup" }).expect(201);
    expectError(await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "dup" }), 409, "vault.name_taken");
    const other = await t.newTenant();
    await t.http.post("/v1/vaults").set(other.auth).send({ name: "dup" }).expect(201);
  });

  it("deletes a vault and returns it", async () => {
    const vault = (
      await t.http
        .post("/v1/vaults")
        .set(t.tenant.auth)
        .send({ name: "to-delete", secrets: { K: SECRET_A } })
    ).body;
    const res = await t.http.delete(`/v1/vaults/${vault.id}`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(vault);
    expect(res.text).not.toContain(SECRET_A);
    expectError(await t.http.get(`/v1/vaults/${vault.id}`).set(t.tenant.auth), 404, "vault.not_found");
    expectError(await t.http.delete(`/v1/vaults/${vault.id}`).set(t.tenant.auth), 404, "vault.not_found");
    await expect(openVaultSecrets(t.platform.ctx, t.tenant.workspaceId, vault.id)).rejects.toMatchObject({
      code: "vault.not_found",
    });
    await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "to-delete" }).expect(201);
  });

  it("walks every page exactly once and binds cursors to the name filter", async () => {
    const tenant = await t.newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (
          await t.http
            .post("/v1/vaults")
            .set(tenant.auth)
            .send({ name: `v${i}` })
        ).body.id,
      );
    }
    const { items, cursors } = await walkPages(t.http, tenant.auth, "/v1/vaults", 2);
    expectEachOnceNewestFirst(
      items.map((v) => v.id),
      ids,
    );
    const filtered = await t.http.get("/v1/vaults?name=v3").set(tenant.auth);
    expect(filtered.body.data.map((v: { id: string }) => v.id)).toEqual([ids[3]]);
    expectInvalid(await t.http.get(`/v1/vaults?name=v3&cursor=${cursors[0]}`).set(tenant.auth), ["query.cursor"]);
  });

  it("hides another workspace's vault behind 404 vault.not_found", async () => {
    const other = await t.newTenant();
    const theirs = (
      await t.http
        .post("/v1/vaults")
        .set(other.auth)
        .send({ name: "theirs", secrets: { K: "v" } })
    ).body;
    expectError(await t.http.get(`/v1/vaults/${theirs.id}`).set(t.tenant.auth), 404, "vault.not_found");
    expectError(
      await t.http
        .put(`/v1/vaults/${theirs.id}/secrets`)
        .set(t.tenant.auth)
        .send({ secrets: { K: "overwritten" } }),
      404,
      "vault.not_found",
    );
    expectError(await t.http.delete(`/v1/vaults/${theirs.id}`).set(t.tenant.auth), 404, "vault.not_found");
    const mine = (await t.http.get("/v1/vaults?limit=100").set(t.tenant.auth)).body.data.map(
      (v: { id: string }) => v.id,
    );
    expect(mine).not.toContain(theirs.id);
    await expect(openVaultSecrets(t.platform.ctx, t.tenant.workspaceId, theirs.id)).rejects.toMatchObject({
      code: "vault.not_found",
    });
  });

  it("lets a member key manage vaults (workspace resource, not administration)", async () => {
    const member = await t.newTenant("member");
    const res = await t.http.post("/v1/vaults").set(member.auth).send({ name: "member-vault" });
    expect(res.status).toBe(201);
  });
});
