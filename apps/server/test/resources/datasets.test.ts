import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDatasetWithCases } from "../../src/datasets/datasets-service.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const cases = (n: number, tag = "q") => Array.from({ length: n }, (_, i) => ({ input: `${tag}${i}` }));

describe("datasets", () => {
  it("creates a dataset with cases, gets and lists it", async () => {
    const created = await t.http
      .post(`${t.tenant.base}/datasets`)
      .set(t.tenant.auth)
      .send({
        name: "capitals",
        description: "Geography",
        cases: [
          { input: "Capital of France?", expected: "Paris", metadata: { level: "easy" } },
          { input: "Capital of Australia?" },
        ],
      });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^ds_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      name: "capitals",
      description: "Geography",
      caseCount: 2,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    expect((await t.http.get(`${t.tenant.base}/datasets/${id}`).set(t.tenant.auth)).body).toEqual(created.body);
    const listed = await t.http.get(`${t.tenant.base}/datasets?name=capitals`).set(t.tenant.auth);
    expect(listed.body.data).toEqual([created.body]);

    const list = await t.http.get(`${t.tenant.base}/datasets/${id}/cases`).set(t.tenant.auth);
    expect(list.body.data).toEqual([
      {
        id: expect.stringMatching(/^dscase_[0-9a-z]{26}$/),
        datasetId: id,
        position: 1,
        input: "Capital of France?",
        expected: "Paris",
        conversation: null,
        expectedTools: null,
        metadata: { level: "easy" },
        createdAt: expect.any(String),
      },
      expect.objectContaining({ position: 2, input: "Capital of Australia?", expected: null, metadata: {} }),
    ]);
  });

  it("appends cases after the existing ones and returns their ids and positions", async () => {
    const ds = (await t.http.post(`${t.tenant.base}/datasets`).set(t.tenant.auth).send({ name: "append" })).body;
    expect(ds.caseCount).toBe(0);
    const first = await t.http
      .post(`${t.tenant.base}/datasets/${ds.id}/cases`)
      .set(t.tenant.auth)
      .send({ cases: cases(3, "a") });
    expect(first.status).toBe(201);
    expect(first.body.dataset).toMatchObject({ id: ds.id, caseCount: 3 });
    expect(first.body.cases.map((c: { position: number }) => c.position)).toEqual([1, 2, 3]);
    const second = await t.http
      .post(`${t.tenant.base}/datasets/${ds.id}/cases`)
      .set(t.tenant.auth)
      .send({ cases: cases(2, "b") });
    expect(second.body.cases.map((c: { position: number }) => c.position)).toEqual([4, 5]);
    expect(second.body.dataset.caseCount).toBe(5);
    const all = await t.http.get(`${t.tenant.base}/datasets/${ds.id}/cases`).set(t.tenant.auth);
    expect(all.body.data.map((c: { input: string }) => c.input)).toEqual(["a0", "a1", "a2", "b0", "b1"]);
  });

  it("keeps caseCount exact and positions gap-free under concurrent appends", async () => {
    const ds = (
      await t.http
        .post(`${t.tenant.base}/datasets`)
        .set(t.tenant.auth)
        .send({ name: "concurrent", cases: cases(1) })
    ).body;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.http
          .post(`${t.tenant.base}/datasets/${ds.id}/cases`)
          .set(t.tenant.auth)
          .send({ cases: cases(5, `r${i}-`) }),
      ),
    );
    for (const res of results) expect(res.status).toBe(201);
    const got = await t.http.get(`${t.tenant.base}/datasets/${ds.id}`).set(t.tenant.auth);
    expect(got.body.caseCount).toBe(61);
    const loaded = await loadDatasetWithCases(t.platform.ctx.db.prisma, t.tenant.projectId, ds.id);
    expect(loaded!.cases.map((c) => c.position)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
    // Each request's cases are contiguous, in the order sent.
    for (const res of results) {
      const positions = res.body.cases.map((c: { position: number }) => c.position);
      expect(positions).toEqual([0, 1, 2, 3, 4].map((k) => positions[0] + k));
    }
  });

  it("walks cases in position order exactly once; a cursor of another dataset is refused", async () => {
    const ds = (
      await t.http
        .post(`${t.tenant.base}/datasets`)
        .set(t.tenant.auth)
        .send({ name: "walk", cases: cases(7) })
    ).body;
    const { items, cursors } = await walkPages(t.http, t.tenant.auth, `${t.tenant.base}/datasets/${ds.id}/cases`, 3);
    expect(items.map((c) => c.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const other = (await t.http.post(`${t.tenant.base}/datasets`).set(t.tenant.auth).send({ name: "other" })).body;
    expectInvalid(
      await t.http.get(`${t.tenant.base}/datasets/${other.id}/cases?cursor=${cursors[0]}`).set(t.tenant.auth),
      ["query.cursor"],
    );
  });

  it("walks the dataset list exactly once and binds cursors to the name filter", async () => {
    const tenant = await t.newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (
          await t.http
            .post(`${tenant.base}/datasets`)
            .set(tenant.auth)
            .send({ name: `d${i}` })
        ).body.id,
      );
    }
    const { items, cursors } = await walkPages(t.http, tenant.auth, `${tenant.base}/datasets`, 2);
    expectEachOnceNewestFirst(
      items.map((d) => d.id),
      ids,
    );
    expectInvalid(await t.http.get(`${tenant.base}/datasets?name=d1&cursor=${cursors[1]}`).set(tenant.auth), [
      "query.cursor",
    ]);
  });

  it("validates bodies with field paths and bounds", async () => {
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/datasets`)
        .set(t.tenant.auth)
        .send({ name: "", cases: [{ input: "" }, { input: "ok", expected: 3, extra: true }] }),
      ["body.name", "body.cases.0.input", "body.cases.1.expected", "body.cases.1"],
    );
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/datasets`)
        .set(t.tenant.auth)
        .send({ name: "too many", cases: cases(1001) }),
      ["body.cases"],
    );
    const ds = (await t.http.post(`${t.tenant.base}/datasets`).set(t.tenant.auth).send({ name: "bounds" })).body;
    expectInvalid(
      await t.http.post(`${t.tenant.base}/datasets/${ds.id}/cases`).set(t.tenant.auth).send({ cases: [] }),
      ["body.cases"],
    );
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/datasets/${ds.id}/cases`)
        .set(t.tenant.auth)
        .send({ cases: [{ input: "€".repeat(90_000) }] }),
      ["body.cases.0.input"],
    );
  });

  it("refuses to grow a dataset past its ceiling with 409 dataset.too_many_cases", async () => {
    const ds = (await t.http.post(`${t.tenant.base}/datasets`).set(t.tenant.auth).send({ name: "full" })).body;
    await t.platform.ctx.db.prisma.dataset.update({ where: { id: ds.id }, data: { caseCount: 9_999 } });
    expectError(
      await t.http
        .post(`${t.tenant.base}/datasets/${ds.id}/cases`)
        .set(t.tenant.auth)
        .send({ cases: cases(2) }),
      409,
      "dataset.too_many_cases",
    );
    const last = await t.http
      .post(`${t.tenant.base}/datasets/${ds.id}/cases`)
      .set(t.tenant.auth)
      .send({ cases: cases(1) });
    expect(last.status).toBe(201);
    expect(last.body.cases[0].position).toBe(10_000);
  });

  it("hides other projects' datasets behind 404", async () => {
    const other = await t.newTenant();
    const theirs = (await t.http.post(`${other.base}/datasets`).set(other.auth).send({ name: "theirs" })).body;
    expectError(
      await t.http.get(`${t.tenant.base}/datasets/${theirs.id}`).set(t.tenant.auth),
      404,
      "dataset.not_found",
    );
    expectError(
      await t.http.get(`${t.tenant.base}/datasets/${theirs.id}/cases`).set(t.tenant.auth),
      404,
      "dataset.not_found",
    );
    expectError(
      await t.http
        .post(`${t.tenant.base}/datasets/${theirs.id}/cases`)
        .set(t.tenant.auth)
        .send({ cases: cases(1) }),
      404,
      "dataset.not_found",
    );
    expectError(await t.http.get(`${other.base}/datasets/${theirs.id}`).set(t.tenant.auth), 404, "project.not_found");
    expect(await loadDatasetWithCases(t.platform.ctx.db.prisma, t.tenant.projectId, theirs.id)).toBeNull();
  });
});
