import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createSkill, expectEnvelope, issuePaths, skillMd } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("create", () => {
  it("creates a skill with an explicit manifest and publishes version 1", async () => {
    const res = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({
        manifest: { name: "Report writer", description: "Writes weekly reports", entry: "README.md" },
        files: [
          { path: "README.md", content: "# Report writer\n" },
          { path: "templates/weekly.md", content: "## Week {{n}}\n" },
        ],
      });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^skill_[0-9a-z]{26}$/),
      name: "Report writer",
      description: "Writes weekly reports",
      currentVersion: 1,
      version: 1,
      manifest: { name: "Report writer", description: "Writes weekly reports", entry: "README.md" },
      files: [
        {
          path: "README.md",
          contentType: "text/markdown; charset=utf-8",
          bytes: 16,
          sha256: sha256("# Report writer\n"),
        },
        {
          path: "templates/weekly.md",
          contentType: "text/markdown; charset=utf-8",
          bytes: 14,
          sha256: sha256("## Week {{n}}\n"),
        },
      ],
      totalBytes: 30,
      versionCreatedAt: expect.stringMatching(ISO),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      archivedAt: null,
    });
    const get = await t.http.get(`/v1/skills/${res.body.id}`).set(t.tenant.auth);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(res.body);
  });

  it("derives the manifest from a root SKILL.md frontmatter", async () => {
    const res = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({
        files: [
          { path: "scripts/run.py", content: "print('hi')\n" },
          {
            path: "SKILL.md",
            content: "---\nname: pdf-tools\ndescription: >\n  Fill and merge\n  PDF forms.\nlicense: MIT\n---\n# PDF\n",
          },
        ],
      });
    expect(res.status).toBe(201);
    expect(res.body.manifest).toEqual({
      name: "pdf-tools",
      description: "Fill and merge PDF forms.",
      entry: "SKILL.md",
    });
    expect(res.body.name).toBe("pdf-tools");
    expect(res.body.description).toBe("Fill and merge PDF forms.");
    expect(res.body.files.map((f: { path: string }) => f.path)).toEqual(["SKILL.md", "scripts/run.py"]);
  });

  it("derives the manifest from the SKILL.md at the root of one top-level folder", async () => {
    const res = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({
        files: [
          { path: "csv-cleaner/SKILL.md", content: skillMd("csv-cleaner", "Cleans CSV files") },
          { path: "csv-cleaner/clean.py", content: "import csv\n" },
        ],
      });
    expect(res.status).toBe(201);
    expect(res.body.manifest).toEqual({
      name: "csv-cleaner",
      description: "Cleans CSV files",
      entry: "csv-cleaner/SKILL.md",
    });
  });

  it("prefers an explicit manifest over the SKILL.md", async () => {
    const res = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({
        manifest: { name: "Explicit", description: "Given by the caller", entry: "SKILL.md" },
        files: [{ path: "SKILL.md", content: skillMd("from-file", "From the file") }],
      });
    expect(res.status).toBe(201);
    expect(res.body.manifest).toEqual({ name: "Explicit", description: "Given by the caller", entry: "SKILL.md" });
  });
});

describe("content", () => {
  it("stores UTF-8 multibyte text exactly, with byte lengths and content types", async () => {
    const files = [
      { path: "SKILL.md", content: skillMd("intl", "Émojis 👋 and accents") },
      { path: "notes/日本語.txt", content: "こんにちは、世界 🌍\n" },
      { path: "data/cities.json", content: '{"city":"São Paulo","temp":"25°C"}' },
      { path: "run.py", content: "print('ñ')\n" },
      { path: "Makefile", content: "all:\n\techo ok\n" },
    ];
    const created = await t.http.post("/v1/skills").set(t.tenant.auth).send({ files });
    expect(created.status).toBe(201);
    const res = await t.http.get(`/v1/skills/${created.body.id}/content`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      skillId: created.body.id,
      name: "intl",
      version: 1,
      currentVersion: 1,
      manifest: { name: "intl", description: "Émojis 👋 and accents", entry: "SKILL.md" },
      files: [
        { path: "Makefile", content: files[4]!.content, contentType: "text/plain; charset=utf-8", bytes: 14 },
        { path: "SKILL.md", content: files[0]!.content, contentType: "text/markdown; charset=utf-8", bytes: 87 },
        { path: "data/cities.json", content: files[2]!.content, contentType: "application/json", bytes: 36 },
        { path: "notes/日本語.txt", content: files[1]!.content, contentType: "text/plain; charset=utf-8", bytes: 30 },
        { path: "run.py", content: files[3]!.content, contentType: "text/x-python; charset=utf-8", bytes: 12 },
      ],
    });
    for (const file of res.body.files) expect(file.bytes).toBe(Buffer.byteLength(file.content, "utf8"));
    const refs = created.body.files as { path: string; bytes: number; sha256: string }[];
    expect(refs.find((f) => f.path === "notes/日本語.txt")).toEqual(
      expect.objectContaining({ bytes: 30, sha256: sha256(files[1]!.content) }),
    );
  });

  it("accepts the content view's files back as a publish body", async () => {
    const skill = await createSkill(t, t.tenant, { files: [{ path: "a.txt", content: "A" }] });
    const content = await t.http.get(`/v1/skills/${skill.id}/content`).set(t.tenant.auth);
    const res = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: content.body.currentVersion, files: content.body.files });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    const again = await t.http.get(`/v1/skills/${skill.id}/content`).set(t.tenant.auth);
    expect(again.body.files).toEqual(content.body.files);
  });

  it("answers a missing version with 404 skill.version_not_found", async () => {
    const skill = await createSkill(t, t.tenant);
    expectEnvelope(
      await t.http.get(`/v1/skills/${skill.id}/content?version=2`).set(t.tenant.auth),
      404,
      "skill.version_not_found",
    );
    expectEnvelope(
      await t.http.get(`/v1/skills/${skill.id}?version=9`).set(t.tenant.auth),
      404,
      "skill.version_not_found",
    );
    expectEnvelope(await t.http.get(`/v1/skills/${skill.id}?version=0`).set(t.tenant.auth), 400, "request.invalid");
  });

  it("answers an unknown skill with 404 skill.not_found on every route", async () => {
    const id = "skill_00000000000000000000000000";
    for (const res of [
      await t.http.get(`/v1/skills/${id}`).set(t.tenant.auth),
      await t.http.get(`/v1/skills/${id}/content`).set(t.tenant.auth),
      await t.http.get(`/v1/skills/${id}/versions`).set(t.tenant.auth),
      await t.http.get(`/v1/skills/${id}/files/SKILL.md`).set(t.tenant.auth),
      await t.http.post(`/v1/skills/${id}/archive`).set(t.tenant.auth),
      await t.http
        .post(`/v1/skills/${id}`)
        .set(t.tenant.auth)
        .send({ version: 1, files: [{ path: "SKILL.md", content: skillMd("x", "y") }] }),
    ]) {
      expectEnvelope(res, 404, "skill.not_found");
    }
  });
});

describe("publish", () => {
  it("publishes a chain of versions; old versions keep their content", async () => {
    const skill = await createSkill(t, t.tenant, { files: [{ path: "tool.py", content: "v = 1\n" }] });
    const v2 = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({
        version: 1,
        files: [
          { path: "SKILL.md", content: skillMd("demo-skill", "Second description") },
          { path: "tool.py", content: "v = 2\n" },
          { path: "extra/notes.md", content: "new file" },
        ],
      });
    expect(v2.status).toBe(200);
    expect(v2.body).toEqual(
      expect.objectContaining({ id: skill.id, version: 2, currentVersion: 2, description: "Second description" }),
    );
    expect(v2.body.manifest).toEqual({ name: "demo-skill", description: "Second description", entry: "SKILL.md" });
    const v3 = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: 2, files: [{ path: "SKILL.md", content: skillMd("renamed", "Third") }] });
    expect(v3.status).toBe(200);
    expect(v3.body).toEqual(expect.objectContaining({ version: 3, currentVersion: 3, name: "renamed" }));
    expect(v3.body.files.map((f: { path: string }) => f.path)).toEqual(["SKILL.md"]);

    const v1 = await t.http.get(`/v1/skills/${skill.id}/content?version=1`).set(t.tenant.auth);
    expect(v1.body).toEqual(expect.objectContaining({ version: 1, currentVersion: 3, name: "renamed" }));
    expect(v1.body.manifest).toEqual({ name: "demo-skill", description: "A demo skill", entry: "SKILL.md" });
    expect(v1.body.files.map((f: { path: string; content: string }) => [f.path, f.content])).toEqual([
      ["SKILL.md", skillMd("demo-skill", "A demo skill")],
      ["tool.py", "v = 1\n"],
    ]);
    const v2Again = await t.http.get(`/v1/skills/${skill.id}/content?version=2`).set(t.tenant.auth);
    expect(v2Again.body.files.find((f: { path: string }) => f.path === "tool.py").content).toBe("v = 2\n");
    const head = await t.http.get(`/v1/skills/${skill.id}`).set(t.tenant.auth);
    expect(head.body).toEqual(expect.objectContaining({ version: 3, currentVersion: 3, name: "renamed" }));
    const old = await t.http.get(`/v1/skills/${skill.id}?version=2`).set(t.tenant.auth);
    expect(old.body).toEqual(expect.objectContaining({ version: 2, currentVersion: 3 }));
    expect(old.body.files.map((f: { path: string }) => f.path)).toEqual(["SKILL.md", "extra/notes.md", "tool.py"]);

    const versions = await t.http.get(`/v1/skills/${skill.id}/versions`).set(t.tenant.auth);
    expect(versions.status).toBe(200);
    expect(versions.body.hasMore).toBe(false);
    expect(versions.body.nextCursor).toBeNull();
    expect(versions.body.data).toEqual([
      {
        skillId: skill.id,
        version: 3,
        manifest: { name: "renamed", description: "Third", entry: "SKILL.md" },
        fileCount: 1,
        totalBytes: Buffer.byteLength(skillMd("renamed", "Third")),
        createdAt: expect.stringMatching(ISO),
      },
      expect.objectContaining({ version: 2, fileCount: 3 }),
      expect.objectContaining({ version: 1, fileCount: 2 }),
    ]);
  });

  it("keeps an explicit manifest when the files are republished without one", async () => {
    const created = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({
        manifest: { name: "Kept", description: "Explicit", entry: "main.md" },
        files: [{ path: "main.md", content: "one" }],
      });
    const res = await t.http
      .post(`/v1/skills/${created.body.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, files: [{ path: "main.md", content: "two" }] });
    expect(res.status).toBe(200);
    expect(res.body.manifest).toEqual({ name: "Kept", description: "Explicit", entry: "main.md" });
    const gone = await t.http
      .post(`/v1/skills/${created.body.id}`)
      .set(t.tenant.auth)
      .send({ version: 2, files: [{ path: "other.md", content: "three" }] });
    expectEnvelope(gone, 422, "skill.invalid_manifest");
    const changed = await t.http
      .post(`/v1/skills/${created.body.id}`)
      .set(t.tenant.auth)
      .send({
        version: 2,
        manifest: { name: "Changed", description: "New", entry: "other.md" },
        files: [{ path: "other.md", content: "three" }],
      });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual(expect.objectContaining({ version: 3, name: "Changed", description: "New" }));
  });

  it("publishes a plain SKILL.md of a skill created with an explicit manifest (issue #15)", async () => {
    const manifest = { name: "Plain", description: "No frontmatter", entry: "SKILL.md" };
    const created = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({ manifest, files: [{ path: "SKILL.md", content: "# Plain\n\nversion 1\n" }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const publish = (version: number, content: string) =>
      t.http
        .post(`/v1/skills/${id}`)
        .set(t.tenant.auth)
        .send({ version, files: [{ path: "SKILL.md", content }] });

    const v2 = await publish(1, "# Plain\n\nversion 2\n");
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body).toEqual(expect.objectContaining({ version: 2, name: "Plain", manifest }));

    // the content view is published back as it is
    const content = await t.http.get(`/v1/skills/${id}/content`).set(t.tenant.auth);
    const v3 = await t.http
      .post(`/v1/skills/${id}`)
      .set(t.tenant.auth)
      .send({ version: content.body.currentVersion, files: content.body.files });
    expect(v3.status, JSON.stringify(v3.body)).toBe(200);
    expect(v3.body).toEqual(expect.objectContaining({ version: 3, manifest }));

    // frontmatter added later updates name and description; each key alone updates only itself
    const v4 = await publish(3, skillMd("renamed", "From the frontmatter"));
    expect(v4.status, JSON.stringify(v4.body)).toBe(200);
    expect(v4.body).toEqual(
      expect.objectContaining({
        name: "renamed",
        description: "From the frontmatter",
        manifest: { name: "renamed", description: "From the frontmatter", entry: "SKILL.md" },
      }),
    );
    const v5 = await publish(4, "---\ndescription: Only the description\n---\n# Body\n");
    expect(v5.status, JSON.stringify(v5.body)).toBe(200);
    expect(v5.body.manifest).toEqual({ name: "renamed", description: "Only the description", entry: "SKILL.md" });

    // a frontmatter that is there but unreadable, or a bad name in it, is refused and nothing is written
    for (const bad of ["---\nname: [x\n---\n", "---\nname: x\n", "---\nname: ''\n---\n"]) {
      expectEnvelope(await publish(5, bad), 422, "skill.invalid_manifest");
    }
    const head = await t.http.get(`/v1/skills/${id}`).set(t.tenant.auth);
    expect(head.body.currentVersion).toBe(5);
  });

  it("keeps an explicit manifest whose entry is not Markdown, whatever the entry starts with", async () => {
    const manifest = { name: "Yaml entry", description: "A YAML entry", entry: "skill.yaml" };
    const created = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send({ manifest, files: [{ path: "skill.yaml", content: "a: 1\n" }] });
    expect(created.status).toBe(201);
    const res = await t.http
      .post(`/v1/skills/${created.body.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, files: [{ path: "skill.yaml", content: "---\nname: not-a-skill-name\n---\n" }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.manifest).toEqual(manifest);
  });

  it("refuses a stale expected version with 409 and writes nothing", async () => {
    const skill = await createSkill(t, t.tenant, { files: [{ path: "x.md", content: "1" }] });
    const ok = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, files: [{ path: "SKILL.md", content: skillMd("demo-skill", "v2") }] });
    expect(ok.status).toBe(200);
    const before = await t.http.get(`/v1/skills/${skill.id}`).set(t.tenant.auth);
    const stale = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, files: [{ path: "SKILL.md", content: skillMd("stale", "stale") }] });
    expectEnvelope(stale, 409, "skill.version_conflict");
    expect(stale.body.error.details).toEqual({ expectedVersion: 1, currentVersion: 2 });
    const ahead = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: 7, files: [{ path: "SKILL.md", content: skillMd("ahead", "ahead") }] });
    expectEnvelope(ahead, 409, "skill.version_conflict");
    const after = await t.http.get(`/v1/skills/${skill.id}`).set(t.tenant.auth);
    expect(after.body).toEqual(before.body);
    const versions = await t.http.get(`/v1/skills/${skill.id}/versions`).set(t.tenant.auth);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const prisma = t.platform.ctx.db.prisma;
    expect(await prisma.skillFile.count({ where: { skillId: skill.id } })).toBe(3);
    expect(await prisma.skillVersion.count({ where: { skillId: skill.id } })).toBe(2);
  });

  it("lets exactly one of two concurrent publishes win", async () => {
    for (let round = 0; round < 3; round++) {
      const skill = await createSkill(t, t.tenant);
      const publish = (label: string) =>
        t.http
          .post(`/v1/skills/${skill.id}`)
          .set(t.tenant.auth)
          .send({
            version: 1,
            files: [
              { path: "SKILL.md", content: skillMd(label, `Published by ${label}`) },
              ...Array.from({ length: 20 }, (_, i) => ({ path: `${label}/f${i}.txt`, content: `${label} ${i}` })),
            ],
          })
          .then((r) => r);
      const results = await Promise.all([publish("left"), publish("right")]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!;
      const loser = results.find((r) => r.status === 409)!;
      expectEnvelope(loser, 409, "skill.version_conflict");
      expect(winner.body.version).toBe(2);

      const versions = await t.http.get(`/v1/skills/${skill.id}/versions`).set(t.tenant.auth);
      expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
      const content = await t.http.get(`/v1/skills/${skill.id}/content`).set(t.tenant.auth);
      expect(content.body.files).toHaveLength(21);
      expect(content.body.name).toBe(winner.body.name);
      const prisma = t.platform.ctx.db.prisma;
      expect(await prisma.skillFile.count({ where: { skillId: skill.id, version: 2 } })).toBe(21);
      expect(await prisma.skillVersion.count({ where: { skillId: skill.id } })).toBe(2);
    }
  });
});

describe("list", () => {
  it("filters by name and status and walks pages with a cursor", async () => {
    const tenant = await t.newTenant();
    const made: string[] = [];
    for (const name of ["alpha-report", "beta-report", "gamma", "Delta-REPORT", "100%_done"]) {
      made.push((await createSkill(t, tenant, { name })).id);
    }
    const all = await t.http.get("/v1/skills").set(tenant.auth);
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([...made].reverse());
    expect(all.body.data[0]).toEqual({
      id: made[4],
      name: "100%_done",
      description: "A demo skill",
      currentVersion: 1,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      archivedAt: null,
    });

    const reports = await t.http.get("/v1/skills?name=report").set(tenant.auth);
    expect(reports.body.data.map((s: { name: string }) => s.name)).toEqual([
      "Delta-REPORT",
      "beta-report",
      "alpha-report",
    ]);
    const literal = await t.http.get(`/v1/skills?name=${encodeURIComponent("%_")}`).set(tenant.auth);
    expect(literal.body.data.map((s: { name: string }) => s.name)).toEqual(["100%_done"]);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/skills?name=report&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await t.http.get(url).set(tenant.auth);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((s: { id: string }) => s.id));
      expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(reports.body.data.map((s: { id: string }) => s.id));

    const first = await t.http.get("/v1/skills?name=report&limit=1").set(tenant.auth);
    const mismatch = await t.http.get(`/v1/skills?name=gamma&cursor=${first.body.nextCursor}`).set(tenant.auth);
    expectEnvelope(mismatch, 400, "request.invalid");
    expect(issuePaths(mismatch)).toEqual(["query.cursor"]);
    expectEnvelope(await t.http.get("/v1/skills?limit=101").set(tenant.auth), 400, "request.invalid");
    expectEnvelope(await t.http.get("/v1/skills?status=deleted").set(tenant.auth), 400, "request.invalid");
  });

  it("walks the version list with a cursor", async () => {
    const skill = await createSkill(t, t.tenant);
    for (let v = 1; v < 5; v++) {
      const res = await t.http
        .post(`/v1/skills/${skill.id}`)
        .set(t.tenant.auth)
        .send({ version: v, files: [{ path: "SKILL.md", content: skillMd("demo-skill", `v${v + 1}`) }] });
      expect(res.status).toBe(200);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v1/skills/${skill.id}/versions?limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await t.http.get(url).set(t.tenant.auth);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((v: { version: number }) => v.version));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    const other = await createSkill(t, t.tenant);
    const first = await t.http.get(`/v1/skills/${skill.id}/versions?limit=1`).set(t.tenant.auth);
    expectEnvelope(
      await t.http.get(`/v1/skills/${other.id}/versions?cursor=${first.body.nextCursor}`).set(t.tenant.auth),
      400,
      "request.invalid",
    );
  });
});

describe("archive", () => {
  it("archives: hidden from the default list, publish refused, reads still work", async () => {
    const tenant = await t.newTenant();
    const kept = await createSkill(t, tenant, { name: "kept" });
    const skill = await createSkill(t, tenant, { name: "to-archive", files: [{ path: "a.txt", content: "A" }] });

    const res = await t.http.post(`/v1/skills/${skill.id}/archive`).set(tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({ id: skill.id, version: 1, currentVersion: 1, archivedAt: expect.stringMatching(ISO) }),
    );
    const again = await t.http.post(`/v1/skills/${skill.id}/archive`).set(tenant.auth).send({});
    expect(again.status).toBe(200);
    expect(again.body.archivedAt).toBe(res.body.archivedAt);
    expectEnvelope(
      await t.http.post(`/v1/skills/${skill.id}/archive`).set(tenant.auth).send({ reason: "x" }),
      400,
      "request.invalid",
    );

    const ids = async (query: string) =>
      (await t.http.get(`/v1/skills${query}`).set(tenant.auth)).body.data.map((s: { id: string }) => s.id);
    expect(await ids("")).toEqual([kept.id]);
    expect(await ids("?status=active")).toEqual([kept.id]);
    expect(await ids("?status=archived")).toEqual([skill.id]);
    expect(await ids("?status=all")).toEqual([skill.id, kept.id]);

    const publish = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(tenant.auth)
      .send({ version: 1, files: [{ path: "SKILL.md", content: skillMd("x", "y") }] });
    expectEnvelope(publish, 409, "skill.archived");
    const stalePublish = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(tenant.auth)
      .send({ version: 4, files: [{ path: "SKILL.md", content: skillMd("x", "y") }] });
    expectEnvelope(stalePublish, 409, "skill.archived");

    const get = await t.http.get(`/v1/skills/${skill.id}`).set(tenant.auth);
    expect(get.status).toBe(200);
    expect(get.body.archivedAt).toBe(res.body.archivedAt);
    const content = await t.http.get(`/v1/skills/${skill.id}/content`).set(tenant.auth);
    expect(content.status).toBe(200);
    expect(content.body.files.map((f: { path: string }) => f.path)).toEqual(["SKILL.md", "a.txt"]);
    const url = await t.http.get(`/v1/skills/${skill.id}/files/a.txt`).set(tenant.auth);
    expect(url.status).toBe(200);
    const file = await t.http.get(new URL(url.body.url).pathname + new URL(url.body.url).search);
    expect(file.status).toBe(200);
    expect(file.text).toBe("A");
  });
});

describe("validation", () => {
  const post = (body: unknown) =>
    t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .send(body as object);
  const entry = { path: "SKILL.md", content: skillMd("v", "validation") };

  it.each([
    ["a `..` segment", "scripts/../secret.txt", "must not contain `..` segments"],
    ["a leading `..`", "../outside.txt", "must not contain `..` segments"],
    ["an absolute path", "/etc/passwd", "must be relative (no leading `/`)"],
    ["a drive letter", "C:/x.txt", "must be relative (no drive letter)"],
    ["a backslash", "scripts\\run.py", "must use `/` as the separator (no `\\`)"],
    ["a `.` segment", "./a.txt", "must be normalized (no `.` segments)"],
    ["an empty segment", "a//b.txt", "must be normalized (no empty segment: `//`, or a trailing `/`)"],
    ["a trailing slash", "folder/", "must be normalized (no empty segment: `//`, or a trailing `/`)"],
    ["a control character", "a\u0001b.txt", "must not contain control characters"],
  ])("refuses a path with %s", async (_what, path, message) => {
    const res = await post({ files: [entry, { path, content: "x" }] });
    expectEnvelope(res, 400, "request.invalid");
    expect(res.body.error.details.issues).toEqual([{ path: "body.files.1.path", message }]);
  });

  it("refuses an empty path and a path that is too long", async () => {
    const res = await post({ files: [entry, { path: "", content: "x" }, { path: "a".repeat(513), content: "x" }] });
    expectEnvelope(res, 400, "request.invalid");
    expect(issuePaths(res)).toEqual(["body.files.1.path", "body.files.2.path"]);
  });

  it("refuses duplicate paths and a path that is also a folder", async () => {
    const dup = await post({ files: [entry, { path: "a.txt", content: "1" }, { path: "a.txt", content: "2" }] });
    expectEnvelope(dup, 400, "request.invalid");
    expect(dup.body.error.details.issues).toEqual([
      { path: "body.files.2.path", message: "duplicate path `a.txt` (also files.1.path)" },
    ]);
    const folder = await post({ files: [entry, { path: "lib", content: "1" }, { path: "lib/x.py", content: "2" }] });
    expectEnvelope(folder, 400, "request.invalid");
    expect(folder.body.error.details.issues).toEqual([
      { path: "body.files.1.path", message: "`lib` is both a file and a folder of other files" },
    ]);
  });

  it("refuses an entry that is not among the files", async () => {
    const res = await post({
      manifest: { name: "n", description: "d", entry: "MISSING.md" },
      files: [{ path: "README.md", content: "x" }],
    });
    expectEnvelope(res, 422, "skill.invalid_manifest");
    expect(res.body.error.message).toContain("MISSING.md");
  });

  it("refuses a file set the manifest cannot be derived from", async () => {
    const cases: { files: { path: string; content: string }[]; says: string }[] = [
      { files: [{ path: "README.md", content: "# no entry" }], says: "SKILL.md" },
      { files: [{ path: "SKILL.md", content: "# No frontmatter\n" }], says: "frontmatter" },
      { files: [{ path: "SKILL.md", content: "---\nname: x\ndescription: y\n" }], says: "never closed" },
      { files: [{ path: "SKILL.md", content: "---\nname: [x\n---\n" }], says: "invalid YAML" },
      { files: [{ path: "SKILL.md", content: "---\nname: x\nname: y\ndescription: d\n---\n" }], says: "invalid YAML" },
      { files: [{ path: "SKILL.md", content: "---\n- a\n- b\n---\n" }], says: "mapping" },
      { files: [{ path: "SKILL.md", content: "---\nname: x\n---\n" }], says: "`description`" },
      { files: [{ path: "SKILL.md", content: "---\nname: 42\ndescription: d\n---\n" }], says: "`name`" },
      { files: [{ path: "deep/er/SKILL.md", content: skillMd("a", "b") }], says: "SKILL.md" },
      {
        files: [
          { path: "one/SKILL.md", content: skillMd("a", "b") },
          { path: "two/SKILL.md", content: skillMd("c", "d") },
        ],
        says: "several",
      },
    ];
    for (const { files, says } of cases) {
      const res = await post({ files });
      expectEnvelope(res, 422, "skill.invalid_manifest");
      expect(res.body.error.message).toContain(says);
    }
  });

  it("refuses too many files", async () => {
    const files = Array.from({ length: 501 }, (_, i) => ({ path: `f${i}.txt`, content: "x" }));
    const res = await post({ files: [entry, ...files.slice(1)] });
    expectEnvelope(res, 400, "request.invalid");
    expect(issuePaths(res)).toEqual(["body.files"]);
    expectEnvelope(await post({ files: [] }), 400, "request.invalid");
  });

  it("refuses a file over 1 MiB of UTF-8 and a version over 5 MiB", async () => {
    const big = "é".repeat(512 * 1024 + 1); // 524289 characters, 1048578 bytes
    const tooBig = await post({ files: [entry, { path: "big.txt", content: big }] });
    expectEnvelope(tooBig, 400, "request.invalid");
    expect(tooBig.body.error.details.issues).toEqual([
      { path: "body.files.1.content", message: "must be at most 1 MiB of UTF-8" },
    ]);
    const chunk = "x".repeat(1024 * 1024);
    const total = await post({
      files: [entry, ...Array.from({ length: 5 }, (_, i) => ({ path: `part${i}.txt`, content: chunk }))],
    });
    expectEnvelope(total, 400, "request.invalid");
    expect(issuePaths(total)).toEqual(["body.files"]);
    expect(total.body.error.message).toContain("5 MiB");
  });

  it("refuses text PostgreSQL or UTF-8 cannot hold", async () => {
    const nul = await post({ files: [entry, { path: "nul.txt", content: "a\u0000b" }] });
    expectEnvelope(nul, 400, "request.invalid");
    expect(issuePaths(nul)).toEqual(["body.files.1.content"]);
    const surrogate = await t.http
      .post("/v1/skills")
      .set(t.tenant.auth)
      .set("Content-Type", "application/json")
      .send(
        `{"files":[{"path":"SKILL.md","content":${JSON.stringify(entry.content)}},{"path":"s.txt","content":"\\ud800"}]}`,
      );
    expectEnvelope(surrogate, 400, "request.invalid");
    expect(issuePaths(surrogate)).toEqual(["body.files.1.content"]);
  });

  it("refuses unknown fields, bad manifests and bad publish bodies", async () => {
    const extra = await post({ files: [entry], owner: "me" });
    expectEnvelope(extra, 400, "request.invalid");
    const manifest = await post({ manifest: { name: "", description: "d", entry: "SKILL.md" }, files: [entry] });
    expectEnvelope(manifest, 400, "request.invalid");
    expect(issuePaths(manifest)).toEqual(["body.manifest.name"]);
    const skill = await createSkill(t, t.tenant);
    for (const body of [
      { files: [entry] },
      { version: 0, files: [entry] },
      { version: 1 },
      { version: 1.5, files: [entry] },
    ]) {
      expectEnvelope(await t.http.post(`/v1/skills/${skill.id}`).set(t.tenant.auth).send(body), 400, "request.invalid");
    }
    const badPath = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, files: [entry, { path: "../x", content: "" }] });
    expectEnvelope(badPath, 400, "request.invalid");
    expect(issuePaths(badPath)).toEqual(["body.files.1.path"]);
    const noEntry = await t.http
      .post(`/v1/skills/${skill.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, manifest: { name: "n", description: "d", entry: "nope.md" }, files: [entry] });
    expectEnvelope(noEntry, 422, "skill.invalid_manifest");
    expect((await t.http.get(`/v1/skills/${skill.id}`).set(t.tenant.auth)).body.currentVersion).toBe(1);
  });
});

describe("security", () => {
  it("answers without a key with 401", async () => {
    const skill = await createSkill(t, t.tenant);
    for (const res of [
      await t.http.get("/v1/skills"),
      await t.http.post("/v1/skills").send({ files: [{ path: "SKILL.md", content: skillMd("a", "b") }] }),
      await t.http.get(`/v1/skills/${skill.id}`),
      await t.http.get(`/v1/skills/${skill.id}/content`),
      await t.http.get(`/v1/skills/${skill.id}/versions`),
      await t.http.get(`/v1/skills/${skill.id}/files/SKILL.md`),
      await t.http.post(`/v1/skills/${skill.id}`).send({ version: 1, files: [] }),
      await t.http.post(`/v1/skills/${skill.id}/archive`),
      await t.http.get("/v1/skills").set("Authorization", "Bearer ap_not_a_key"),
    ]) {
      expectEnvelope(res, 401, "auth.unauthorized");
    }
  });

  it("hides another workspace's skills (404, never listed)", async () => {
    const skill = await createSkill(t, t.tenant, { name: "private-skill" });
    const other = await t.newTenant("member");
    for (const res of [
      await t.http.get(`/v1/skills/${skill.id}`).set(other.auth),
      await t.http.get(`/v1/skills/${skill.id}/content`).set(other.auth),
      await t.http.get(`/v1/skills/${skill.id}/versions`).set(other.auth),
      await t.http.get(`/v1/skills/${skill.id}/files/SKILL.md`).set(other.auth),
      await t.http.post(`/v1/skills/${skill.id}/archive`).set(other.auth),
      await t.http
        .post(`/v1/skills/${skill.id}`)
        .set(other.auth)
        .send({ version: 1, files: [{ path: "SKILL.md", content: skillMd("stolen", "x") }] }),
    ]) {
      expectEnvelope(res, 404, "skill.not_found");
    }
    const list = await t.http.get("/v1/skills?status=all").set(other.auth);
    expect(list.body.data).toEqual([]);
    const mine = await t.http.get(`/v1/skills/${skill.id}`).set(t.tenant.auth);
    expect(mine.body).toEqual(expect.objectContaining({ currentVersion: 1, name: "private-skill", archivedAt: null }));
  });

  it("lets a member key of the same workspace use skills (workspace scope)", async () => {
    const skill = await createSkill(t, t.tenant);
    const { projectId, workspaceId } = t.tenant;
    const prisma = t.platform.ctx.db.prisma;
    const { insertApiKey } = await import("../../src/platform/api-keys-service.js");
    const member = await insertApiKey(prisma, { workspaceId, projectId, name: "member", role: "member" });
    const res = await t.http.get(`/v1/skills/${skill.id}`).set("Authorization", `Bearer ${member.key}`);
    expect(res.status).toBe(200);
  });
});
