import { expect } from "vitest";
import { newId } from "../../src/ids.js";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export { expectError, expectInvalid, type HttpResult } from "../support/expect-error.js";

/** Small HTTP client for one tenant's agents. */
export function agentsApi(t: TestApp, tenant: Tenant = t.tenant) {
  const base = `${tenant.base}/agents`;
  return {
    base,
    create: (body: Record<string, unknown>) => t.http.post(base).set(tenant.auth).send(body),
    get: (id: string, version?: number) =>
      t.http.get(`${base}/${id}${version !== undefined ? `?version=${version}` : ""}`).set(tenant.auth),
    list: (query = "") => t.http.get(`${base}${query}`).set(tenant.auth),
    update: (id: string, body: Record<string, unknown>) => t.http.post(`${base}/${id}`).set(tenant.auth).send(body),
    duplicate: (id: string, body: Record<string, unknown> = {}) =>
      t.http.post(`${base}/${id}/duplicate`).set(tenant.auth).send(body),
    archive: (id: string) => t.http.post(`${base}/${id}/archive`).set(tenant.auth).send({}),
    restore: (id: string, source: number, expected: number) =>
      t.http.post(`${base}/${id}/versions/${source}/restore`).set(tenant.auth).send({ version: expected }),
    rotate: (id: string, server: string, headers: Record<string, string>) =>
      t.http.put(`${base}/${id}/mcp-servers/${server}/headers`).set(tenant.auth).send({ headers }),
    versions: (id: string, query = "") => t.http.get(`${base}/${id}/versions${query}`).set(tenant.auth),
  };
}

export type AgentsApi = ReturnType<typeof agentsApi>;

/** Creates an agent (expects 201) and returns its record. */
// biome-ignore lint/suspicious/noExplicitAny: agent records are inspected freely by tests
export async function createAgent(api: AgentsApi, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api.create({ name: "Helper", model: "builtin/echo", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Seeds the resources agents reference, straight in the database (each test seeds its own). */
export function seeds(t: TestApp, tenant: Tenant = t.tenant) {
  const prisma = t.platform.ctx.db.prisma;
  return {
    async environment(name = "env", archived = false): Promise<string> {
      const id = newId("environment");
      await prisma.environment.create({
        data: { id, projectId: tenant.projectId, name, ...(archived ? { archivedAt: new Date() } : {}) },
      });
      return id;
    },
    async vault(name: string): Promise<string> {
      const id = newId("vault");
      await prisma.vault.create({
        data: { id, workspaceId: tenant.workspaceId, name, sealed: t.platform.ctx.secrets.seal({}), secretKeys: [] },
      });
      return id;
    },
    async memoryStore(name: string): Promise<string> {
      const id = newId("memoryStore");
      await prisma.memoryStore.create({ data: { id, projectId: tenant.projectId, name } });
      return id;
    },
    async knowledgeBase(name = "kb"): Promise<string> {
      const id = newId("knowledgeBase");
      await prisma.knowledgeBase.create({ data: { id, projectId: tenant.projectId, name } });
      return id;
    },
    /** A skill with versions 1..versions. */
    async skill(versions = 1, archived = false): Promise<string> {
      const id = newId("skill");
      await prisma.skill.create({
        data: {
          id,
          workspaceId: tenant.workspaceId,
          name: `skill-${id.slice(-6)}`,
          description: "seeded",
          currentVersion: versions,
          ...(archived ? { archivedAt: new Date() } : {}),
        },
      });
      for (let version = 1; version <= versions; version++) {
        await prisma.skillVersion.create({
          data: {
            skillId: id,
            version,
            manifest: { name: "s", description: "d", entry: "SKILL.md" },
            fileCount: 0,
            totalBytes: 0,
          },
        });
      }
      return id;
    },
    /** A serverless tool with versions 1..versions. */
    async serverlessTool(versions = 1): Promise<string> {
      const id = newId("serverlessTool");
      await prisma.serverlessTool.create({
        data: { id, projectId: tenant.projectId, name: `tool-${id.slice(-6)}`, currentVersion: versions },
      });
      for (let version = 1; version <= versions; version++) {
        await prisma.serverlessToolVersion.create({
          data: { toolId: id, version, description: "d", inputSchema: {}, url: "https://tools.example/run" },
        });
      }
      return id;
    },
  };
}
