import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSkillVersions, loadSkillFiles } from "../../src/skills/index.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createSkill, skillMd } from "./helpers.js";

let t: TestApp;
let other: Tenant;
let a: string;
let b: string;
let foreign: string;
beforeAll(async () => {
  t = await startTestApp();
  other = await t.newTenant();
  a = (await createSkill(t, t.tenant, { name: "alpha", files: [{ path: "lib/x.py", content: "x = 'ü'\n" }] })).id;
  const v2 = await t.http
    .post(`/v1/skills/${a}`)
    .set(t.tenant.auth)
    .send({ version: 1, files: [{ path: "SKILL.md", content: skillMd("alpha", "second") }] });
  expect(v2.status).toBe(200);
  b = (await createSkill(t, t.tenant, { name: "beta" })).id;
  expect((await t.http.post(`/v1/skills/${b}/archive`).set(t.tenant.auth)).status).toBe(200);
  foreign = (await createSkill(t, other, { name: "foreign" })).id;
});
afterAll(async () => {
  await t?.close();
});

describe("findSkillVersions", () => {
  it("returns the references that exist in the workspace, with the archived flag, in one query", async () => {
    const prisma = t.platform.ctx.db.prisma;
    const found = await findSkillVersions(prisma, t.tenant.workspaceId, [
      { skillId: a, version: 1 },
      { skillId: a, version: 2 },
      { skillId: a, version: 3 },
      { skillId: a, version: 2 },
      { skillId: b, version: 1 },
      { skillId: foreign, version: 1 },
      { skillId: "skill_missing", version: 1 },
      { skillId: a, version: 3_000_000_000 },
    ]);
    expect(found).toEqual(
      [
        { skillId: a, version: 1, name: "alpha", archived: false },
        { skillId: a, version: 2, name: "alpha", archived: false },
        { skillId: b, version: 1, name: "beta", archived: true },
      ].sort((x, y) => (x.skillId < y.skillId ? -1 : x.skillId > y.skillId ? 1 : x.version - y.version)),
    );
    expect(await findSkillVersions(prisma, t.tenant.workspaceId, [])).toEqual([]);
    expect(await findSkillVersions(prisma, other.workspaceId, [{ skillId: a, version: 1 }])).toEqual([]);
  });

  it("works inside a transaction", async () => {
    const prisma = t.platform.ctx.db.prisma;
    const found = await prisma.$transaction((tx) =>
      findSkillVersions(tx, t.tenant.workspaceId, [{ skillId: b, version: 1 }]),
    );
    expect(found).toEqual([{ skillId: b, version: 1, name: "beta", archived: true }]);
  });
});

describe("loadSkillFiles", () => {
  it("loads a pinned version's files, also for an archived skill", async () => {
    const prisma = t.platform.ctx.db.prisma;
    const v1 = await loadSkillFiles(prisma, t.tenant.workspaceId, a, 1);
    expect(v1.manifest).toEqual({ name: "alpha", description: "A demo skill", entry: "SKILL.md" });
    expect(v1.files.map((f) => [f.path, f.bytes, f.contentType])).toEqual([
      ["SKILL.md", Buffer.byteLength(skillMd("alpha", "A demo skill")), "text/markdown; charset=utf-8"],
      ["lib/x.py", 9, "text/x-python; charset=utf-8"],
    ]);
    expect(v1.files[1]!.content).toBe("x = 'ü'\n");
    expect(Object.isFrozen(v1.files[0])).toBe(true);
    const v2 = await loadSkillFiles(prisma, t.tenant.workspaceId, a, 2);
    expect(v2.files.map((f) => f.path)).toEqual(["SKILL.md"]);
    const archived = await loadSkillFiles(prisma, t.tenant.workspaceId, b, 1);
    expect(archived.manifest.name).toBe("beta");
  });

  it("serves repeated loads from the in-process cache", async () => {
    const prisma = t.platform.ctx.db.prisma;
    const first = await loadSkillFiles(prisma, t.tenant.workspaceId, a, 1);
    const second = await loadSkillFiles(prisma, t.tenant.workspaceId, a, 1);
    expect(second.files).toBe(first.files);
  });

  it("throws 404 codes for a missing skill, another workspace's skill, or a missing version", async () => {
    const prisma = t.platform.ctx.db.prisma;
    await expect(loadSkillFiles(prisma, t.tenant.workspaceId, "skill_missing", 1)).rejects.toMatchObject({
      code: "skill.not_found",
      status: 404,
    });
    await expect(loadSkillFiles(prisma, other.workspaceId, a, 1)).rejects.toMatchObject({ code: "skill.not_found" });
    await expect(loadSkillFiles(prisma, t.tenant.workspaceId, a, 3)).rejects.toMatchObject({
      code: "skill.version_not_found",
    });
    await expect(loadSkillFiles(prisma, other.workspaceId, foreign, 2)).rejects.toMatchObject({
      code: "skill.version_not_found",
    });
  });
});
