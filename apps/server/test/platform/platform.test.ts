import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("platform context", () => {
  it("returns the key's project, workspace and key", async () => {
    const res = await t.http.get("/v1/platform/context").set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body.project.id).toBe(t.tenant.projectId);
    expect(res.body.project.defaultEnvironmentId).toBe(t.tenant.defaultEnvironmentId);
    expect(res.body.workspace.id).toBe(t.tenant.workspaceId);
    expect(res.body.apiKey.role).toBe("admin");
  });
});

describe("projects", () => {
  it("creates a project with its default environment (admin)", async () => {
    const res = await t.http.post("/v1/projects").set(t.tenant.auth).send({ name: "Second" });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^proj_/);
    expect(res.body.defaultEnvironmentId).toMatch(/^env_/);
    const env = await t.platform.ctx.db.prisma.environment.findUnique({ where: { id: res.body.defaultEnvironmentId } });
    expect(env?.projectId).toBe(res.body.id);
  });

  it("refuses project administration to a member key with 403 auth.forbidden", async () => {
    const member = await t.newTenant("member");
    const res = await t.http.post("/v1/projects").set(member.auth).send({ name: "Nope" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("auth.forbidden");
  });

  it("hides another workspace's project behind 404", async () => {
    const other = await t.newTenant();
    const res = await t.http.get(`/v1/projects/${other.projectId}`).set(t.tenant.auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("project.not_found");
  });
});

describe("api keys", () => {
  it("shows the secret once, lists without it, and revocation takes effect at once", async () => {
    const created = await t.http
      .post("/v1/api-keys")
      .set(t.tenant.auth)
      .send({ name: "ci", projectId: t.tenant.projectId });
    expect(created.status).toBe(201);
    expect(created.body.role).toBe("member");
    const key = created.body.key as string;
    expect((await t.http.get("/v1/platform/context").set("Authorization", `Bearer ${key}`)).status).toBe(200);

    const list = await t.http.get("/v1/api-keys?limit=100").set(t.tenant.auth);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);

    const revoked = await t.http.post(`/v1/api-keys/${created.body.id}/revoke`).set(t.tenant.auth);
    expect(revoked.body.revokedAt).not.toBeNull();
    const after = await t.http.get("/v1/platform/context").set("Authorization", `Bearer ${key}`);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("auth.unauthorized");
  });

  it("walks every key exactly once with small pages and refuses a cursor reused with other filters", async () => {
    for (let i = 0; i < 5; i++) {
      await t.http
        .post("/v1/api-keys")
        .set(t.tenant.auth)
        .send({ name: `k${i}`, projectId: t.tenant.projectId });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.http.get(`/v1/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`).set(t.tenant.auth);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((k: { id: string }) => k.id));
      cursor = res.body.nextCursor ?? undefined;
      if (!res.body.hasMore) expect(res.body.nextCursor).toBeNull();
    } while (cursor);
    const total = await t.platform.ctx.db.prisma.apiKey.count({ where: { workspaceId: t.tenant.workspaceId } });
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it("rejects a malformed cursor with request.invalid", async () => {
    const res = await t.http.get("/v1/api-keys?cursor=garbage").set(t.tenant.auth);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("request.invalid");
    expect(res.body.error.details.issues[0].path).toBe("query.cursor");
  });
});
