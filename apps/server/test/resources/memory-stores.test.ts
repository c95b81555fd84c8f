import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deleteMemory,
  listMemory,
  readMemory,
  searchMemory,
  writeMemory,
} from "../../src/memory-stores/memory-entries.js";
import { findMemoryStoresByRefs } from "../../src/memory-stores/memory-stores-service.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function newStore(name: string, tenant = t.tenant) {
  const res = await t.http.post(`${tenant.base}/memory-stores`).set(tenant.auth).send({ name });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string };
}

describe("memory stores", () => {
  it("creates, gets, lists and deletes a store", async () => {
    const created = await t.http
      .post(`${t.tenant.base}/memory-stores`)
      .set(t.tenant.auth)
      .send({ name: "notes", description: "Team notes" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^ms_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      name: "notes",
      description: "Team notes",
      entryCount: 0,
      embeddingModel: "builtin/hash-ngrams",
      embedding: { status: "ready", servingModel: "builtin/hash-ngrams" },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    expect((await t.http.get(`${t.tenant.base}/memory-stores/${id}`).set(t.tenant.auth)).body).toEqual(created.body);
    const listed = await t.http.get(`${t.tenant.base}/memory-stores?name=notes`).set(t.tenant.auth);
    expect(listed.body.data).toEqual([created.body]);

    await t.http
      .put(`${t.tenant.base}/memory-stores/${id}/entries`)
      .set(t.tenant.auth)
      .send({ key: "a.md", content: "x" })
      .expect(200);
    const deleted = await t.http.delete(`${t.tenant.base}/memory-stores/${id}`).set(t.tenant.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, name: "notes", entryCount: 1 });
    expectError(
      await t.http.get(`${t.tenant.base}/memory-stores/${id}`).set(t.tenant.auth),
      404,
      "memory_store.not_found",
    );
    expect(await t.platform.ctx.db.prisma.memoryEntry.count({ where: { storeId: id } })).toBe(0);
  });

  it("upserts, lists and deletes entries through HTTP", async () => {
    const store = await newStore("entries");
    const base = `${t.tenant.base}/memory-stores/${store.id}/entries`;
    const first = await t.http.put(base).set(t.tenant.auth).send({ key: "notes/todo.md", content: "buy milk" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      key: "notes/todo.md",
      content: "buy milk",
      bytes: 8,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const replaced = await t.http.put(base).set(t.tenant.auth).send({ key: "notes/todo.md", content: "buy café" });
    expect(replaced.body).toMatchObject({ content: "buy café", bytes: 9, createdAt: first.body.createdAt });
    await t.http.put(base).set(t.tenant.auth).send({ key: "profile", content: "likes tea" }).expect(200);

    const list = await t.http.get(base).set(t.tenant.auth);
    expect(list.body.data.map((e: { key: string }) => e.key)).toEqual(["notes/todo.md", "profile"]);
    expect((await t.http.get(`${t.tenant.base}/memory-stores/${store.id}`).set(t.tenant.auth)).body.entryCount).toBe(2);
    const notes = await t.http.get(`${base}?prefix=notes/`).set(t.tenant.auth);
    expect(notes.body.data.map((e: { key: string }) => e.key)).toEqual(["notes/todo.md"]);

    const removed = await t.http.delete(`${base}?key=profile`).set(t.tenant.auth);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ key: "profile", content: "likes tea" });
    expectError(await t.http.delete(`${base}?key=profile`).set(t.tenant.auth), 404, "memory_entry.not_found");
  });

  it("pages entries in key order exactly once; a prefix is treated literally; cursors bind to store and prefix", async () => {
    const store = await newStore("paging");
    const base = `${t.tenant.base}/memory-stores/${store.id}/entries`;
    const keys = ["a_1", "a-2", "a/b", "ab", "b", "b_c", "c/d/e.txt"];
    for (const key of keys) await t.http.put(base).set(t.tenant.auth).send({ key, content: key }).expect(200);
    const { items, cursors } = await walkPages(t.http, t.tenant.auth, base, 2);
    const walked = items.map((e) => e.key as string);
    expect(new Set(walked).size).toBe(keys.length);
    expect([...walked].sort()).toEqual([...keys].sort());
    // `_` is a LIKE wildcard: the prefix must match it literally.
    const literal = await t.http.get(`${base}?prefix=a_`).set(t.tenant.auth);
    expect(literal.body.data.map((e: { key: string }) => e.key)).toEqual(["a_1"]);
    expectInvalid(await t.http.get(`${base}?prefix=a&cursor=${cursors[0]}`).set(t.tenant.auth), ["query.cursor"]);
    const otherStore = await newStore("paging-2");
    expectInvalid(
      await t.http
        .get(`${t.tenant.base}/memory-stores/${otherStore.id}/entries?cursor=${cursors[0]}`)
        .set(t.tenant.auth),
      ["query.cursor"],
    );
  });

  it("validates keys and sizes with field paths", async () => {
    const store = await newStore("validation");
    const base = `${t.tenant.base}/memory-stores/${store.id}/entries`;
    for (const key of ["/abs", "a//b", "a/../b", "sp ace", "trailing/", ""]) {
      expectInvalid(await t.http.put(base).set(t.tenant.auth).send({ key, content: "x" }), ["body.key"]);
    }
    expectInvalid(
      await t.http
        .put(base)
        .set(t.tenant.auth)
        .send({ key: "big", content: "x".repeat(100 * 1024 + 1) }),
      ["body.content"],
    );
    expectInvalid(await t.http.delete(`${base}?key=a/../b`).set(t.tenant.auth), ["query.key"]);
    expectInvalid(await t.http.delete(base).set(t.tenant.auth), ["query.key"]);
    expectInvalid(await t.http.post(`${t.tenant.base}/memory-stores`).set(t.tenant.auth).send({ name: "ms_x" }), [
      "body.name",
    ]);
  });

  it("refuses a duplicate name in the project with 409 memory_store.name_taken", async () => {
    await newStore("same");
    expectError(
      await t.http.post(`${t.tenant.base}/memory-stores`).set(t.tenant.auth).send({ name: "same" }),
      409,
      "memory_store.name_taken",
    );
    const other = await t.newTenant();
    await newStore("same", other);
  });

  it("walks the store list exactly once and binds cursors to the name filter", async () => {
    const tenant = await t.newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newStore(`s${i}`, tenant)).id);
    const { items, cursors } = await walkPages(t.http, tenant.auth, `${tenant.base}/memory-stores`, 2);
    expectEachOnceNewestFirst(
      items.map((s) => s.id),
      ids,
    );
    expectInvalid(await t.http.get(`${tenant.base}/memory-stores?name=s1&cursor=${cursors[0]}`).set(tenant.auth), [
      "query.cursor",
    ]);
  });

  it("hides other projects' stores: unknown id and foreign store are 404, a foreign key is 404", async () => {
    const other = await t.newTenant();
    const theirs = await newStore("theirs", other);
    for (const path of [`/memory-stores/${theirs.id}`, `/memory-stores/${theirs.id}/entries`]) {
      expectError(await t.http.get(`${t.tenant.base}${path}`).set(t.tenant.auth), 404, "memory_store.not_found");
    }
    expectError(
      await t.http
        .put(`${t.tenant.base}/memory-stores/${theirs.id}/entries`)
        .set(t.tenant.auth)
        .send({ key: "k", content: "x" }),
      404,
      "memory_store.not_found",
    );
    expectError(
      await t.http.delete(`${t.tenant.base}/memory-stores/ms_00000000000000000000000000`).set(t.tenant.auth),
      404,
      "memory_store.not_found",
    );
    expectError(
      await t.http.get(`${other.base}/memory-stores/${theirs.id}`).set(t.tenant.auth),
      404,
      "project.not_found",
    );
    expectError(await t.http.get(`${t.tenant.base}/memory-stores`).set(other.auth), 404, "project.not_found");
  });
});

describe("memory functions for the runtime", () => {
  it("read, write, list, search and delete against the database", async () => {
    const prisma = t.platform.ctx.db.prisma;
    const store = await newStore("runtime");
    expect(await readMemory(prisma, store.id, "missing.md")).toBeNull();
    const written = await writeMemory(
      t.platform.ctx.db,
      store.id,
      "projects/apollo.md",
      "Deadline is 50% of Q3; owner Ada",
    );
    expect(written).toMatchObject({ key: "projects/apollo.md", bytes: 32 });
    await writeMemory(t.platform.ctx.db, store.id, "projects/zeus.md", "Owner Bob, deadline Q4");
    await writeMemory(t.platform.ctx.db, store.id, "people/ada.md", "Ada prefers email");
    expect((await readMemory(prisma, store.id, "projects/apollo.md"))?.content).toBe(
      "Deadline is 50% of Q3; owner Ada",
    );

    const listed = await listMemory(prisma, store.id, { prefix: "projects/" });
    expect(listed.map((e) => e.key)).toEqual(["projects/apollo.md", "projects/zeus.md"]);
    expect(listed[0]).toEqual({
      key: "projects/apollo.md",
      bytes: 32,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect((await listMemory(prisma, store.id, { afterKey: "people/ada.md", limit: 1 })).map((e) => e.key)).toEqual([
      "projects/apollo.md",
    ]);

    const deadline = await searchMemory(prisma, store.id, "DEADLINE owner");
    expect(deadline.map((h) => h.key).sort()).toEqual(["projects/apollo.md", "projects/zeus.md"]);
    expect((await searchMemory(prisma, store.id, "ada")).map((h) => h.key).sort()).toEqual([
      "people/ada.md",
      "projects/apollo.md",
    ]);
    // `%` and `_` are literal, not wildcards.
    expect((await searchMemory(prisma, store.id, "50%")).map((h) => h.key)).toEqual(["projects/apollo.md"]);
    expect(await searchMemory(prisma, store.id, "5_%")).toEqual([]);
    expect((await searchMemory(prisma, store.id, "prefers"))[0]?.snippet).toContain("Ada prefers email");

    expect((await deleteMemory(prisma, store.id, "people/ada.md"))?.content).toBe("Ada prefers email");
    expect(await deleteMemory(prisma, store.id, "people/ada.md")).toBeNull();
  });

  it("refuses malformed keys, oversized content and writes to a deleted store", async () => {
    const store = await newStore("runtime-errors");
    await expect(writeMemory(t.platform.ctx.db, store.id, "../etc/passwd", "x")).rejects.toMatchObject({
      code: "request.invalid",
    });
    await expect(writeMemory(t.platform.ctx.db, store.id, "big", "x".repeat(100 * 1024 + 1))).rejects.toMatchObject({
      code: "request.invalid",
    });
    await t.http.delete(`${t.tenant.base}/memory-stores/${store.id}`).set(t.tenant.auth).expect(200);
    await expect(writeMemory(t.platform.ctx.db, store.id, "k", "x")).rejects.toMatchObject({
      code: "memory_store.not_found",
    });
  });

  it("resolves a store by id or by name within the project only", async () => {
    const prisma = t.platform.ctx.db.prisma;
    const store = await newStore("by-name");
    const found = await findMemoryStoresByRefs(prisma, t.tenant.projectId, ["by-name", store.id, "nothing"]);
    expect([...found]).toEqual([
      ["by-name", { id: store.id, name: "by-name" }],
      [store.id, { id: store.id, name: "by-name" }],
    ]);
    const other = await t.newTenant();
    expect((await findMemoryStoresByRefs(prisma, other.projectId, [store.id])).size).toBe(0);
  });
});
