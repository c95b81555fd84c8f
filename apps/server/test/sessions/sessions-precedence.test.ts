import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, newSession, seedEnvironment, seedMemoryStore, seedVault, updateAgent } from "./helpers.js";

// Execution defaults and precedence: explicit value of the call (presence is the signal), then the agent version's
// defaults, then the account default (project default environment, no vaults, no memory). Every combination.

let t: TestApp;
let tenant: Tenant;
const ids = {} as {
  envExplicit: string;
  envDefault: string;
  vaultExplicit: string;
  vaultDefault: string;
  storeExplicit: string;
  storeDefault: string;
  withDefaults: string;
  withoutDefaults: string;
};

beforeAll(async () => {
  t = await startTestApp();
  tenant = t.tenant;
  ids.envExplicit = await seedEnvironment(t, tenant, "explicit-env");
  ids.envDefault = await seedEnvironment(t, tenant, "default-env");
  ids.vaultExplicit = await seedVault(t, tenant, "explicit-vault");
  ids.vaultDefault = await seedVault(t, tenant, "default-vault");
  ids.storeExplicit = await seedMemoryStore(t, tenant, "explicit-store");
  ids.storeDefault = await seedMemoryStore(t, tenant, "default-store");
  ids.withDefaults = (
    await createAgent(t, tenant, {
      name: "with defaults",
      defaults: {
        environmentId: ids.envDefault,
        vaultIds: [ids.vaultDefault],
        resources: [{ memoryStoreId: ids.storeDefault, memoryStoreName: "default-store", mode: "read-only" }],
      },
    })
  ).id;
  ids.withoutDefaults = (await createAgent(t, tenant, { name: "without defaults" })).id;
});
afterAll(async () => {
  await t?.close();
});

type Presence = "value" | "empty" | "absent";
type AgentKind = "with defaults" | "without defaults";
const presences: Presence[] = ["value", "empty", "absent"];
const agents: AgentKind[] = ["with defaults", "without defaults"];
const agentId = (kind: AgentKind) => (kind === "with defaults" ? ids.withDefaults : ids.withoutDefaults);

describe.each(agents)("agent %s", (kind) => {
  describe.each(presences)("environmentId %s", (presence) => {
    it("resolves by precedence", async () => {
      const body: Record<string, unknown> = { agent: agentId(kind) };
      if (presence === "value") body.environmentId = ids.envExplicit;
      if (presence === "empty") body.environmentId = null;
      const s = await newSession(t, tenant, body);
      const expected =
        presence === "value"
          ? ids.envExplicit
          : presence === "empty"
            ? tenant.defaultEnvironmentId
            : kind === "with defaults"
              ? ids.envDefault
              : tenant.defaultEnvironmentId;
      expect(s.environmentId).toBe(expected);
    });
  });

  describe.each(presences)("vaultIds %s", (presence) => {
    it("resolves by precedence", async () => {
      const body: Record<string, unknown> = { agent: agentId(kind) };
      if (presence === "value") body.vaultIds = ["explicit-vault"];
      if (presence === "empty") body.vaultIds = [];
      const s = await newSession(t, tenant, body);
      const expected =
        presence === "value"
          ? [ids.vaultExplicit]
          : presence === "empty"
            ? []
            : kind === "with defaults"
              ? [ids.vaultDefault]
              : [];
      expect(s.vaultIds).toEqual(expected);
    });
  });

  describe.each(presences)("resources %s", (presence) => {
    it("resolves by precedence", async () => {
      const body: Record<string, unknown> = { agent: agentId(kind) };
      if (presence === "value") body.resources = [{ memoryStore: ids.storeExplicit, mode: "read-write" }];
      if (presence === "empty") body.resources = [];
      const s = await newSession(t, tenant, body);
      const expected =
        presence === "value"
          ? [{ memoryStoreId: ids.storeExplicit, memoryStoreName: "explicit-store", mode: "read-write" }]
          : presence === "empty"
            ? []
            : kind === "with defaults"
              ? [{ memoryStoreId: ids.storeDefault, memoryStoreName: "default-store", mode: "read-only" }]
              : [];
      expect(s.resources).toEqual(expected);
    });
  });
});

describe("fields resolve independently", () => {
  it("follows a change of the project's default environment made elsewhere (each process caches it)", async () => {
    const first = await newSession(t, tenant, { agent: ids.withoutDefaults });
    const again = await newSession(t, tenant, { agent: ids.withoutDefaults });
    expect([first.environmentId, again.environmentId]).toEqual([
      tenant.defaultEnvironmentId,
      tenant.defaultEnvironmentId,
    ]);
    const { pool } = t.platform.ctx.db;
    const change = (to: string) =>
      pool.query(`UPDATE projects SET "defaultEnvironmentId" = $2 WHERE "id" = $1`, [tenant.projectId, to]);
    await change(ids.envExplicit);
    try {
      // The change reaches the process by NOTIFY, a moment after its commit.
      const until = Date.now() + 5_000;
      let seen = (await newSession(t, tenant, { agent: ids.withoutDefaults })).environmentId;
      while (seen !== ids.envExplicit && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = (await newSession(t, tenant, { agent: ids.withoutDefaults })).environmentId;
      }
      expect(seen).toBe(ids.envExplicit);
    } finally {
      await change(tenant.defaultEnvironmentId);
    }
  });

  it("mixes an explicit environment, explicit no vaults and the agent's memory default", async () => {
    const s = await newSession(t, tenant, { agent: ids.withDefaults, environmentId: ids.envExplicit, vaultIds: [] });
    expect(s.environmentId).toBe(ids.envExplicit);
    expect(s.vaultIds).toEqual([]);
    expect(s.resources).toEqual([
      { memoryStoreId: ids.storeDefault, memoryStoreName: "default-store", mode: "read-only" },
    ]);
  });

  it("uses the defaults of the pinned version, not of the current one", async () => {
    const a = await createAgent(t, tenant, { name: "pinned", defaults: { vaultIds: [ids.vaultDefault] } });
    await updateAgent(t, tenant, a.id, 1, { defaults: { vaultIds: [ids.vaultExplicit] } });
    expect((await newSession(t, tenant, { agent: { id: a.id, version: 1 } })).vaultIds).toEqual([ids.vaultDefault]);
    expect((await newSession(t, tenant, { agent: a.id })).vaultIds).toEqual([ids.vaultExplicit]);
  });
});

describe("resolution happens once", () => {
  it("changing the agent's defaults later does not change an existing session", async () => {
    const a = await createAgent(t, tenant, {
      name: "changing",
      defaults: {
        environmentId: ids.envDefault,
        vaultIds: [ids.vaultDefault],
        resources: [{ memoryStoreId: ids.storeDefault, memoryStoreName: "default-store", mode: "read-only" }],
      },
    });
    const before = await newSession(t, tenant, { agent: a.id });
    await updateAgent(t, tenant, a.id, 1, {
      defaults: {
        environmentId: ids.envExplicit,
        vaultIds: [ids.vaultExplicit],
        resources: [{ memoryStoreId: ids.storeExplicit, memoryStoreName: "explicit-store", mode: "read-write" }],
      },
    });
    const after = await t.http.get(`${tenant.base}/sessions/${before.id}`).set(tenant.auth);
    expect(after.body).toEqual(before);
    const fresh = await newSession(t, tenant, { agent: a.id });
    expect(fresh.agent.version).toBe(2);
    expect(fresh.environmentId).toBe(ids.envExplicit);
    expect(fresh.vaultIds).toEqual([ids.vaultExplicit]);
  });

  it("a renamed memory store keeps the stored name of existing sessions; new sessions get the new name", async () => {
    const store = await seedMemoryStore(t, tenant, "before-rename");
    const s = await newSession(t, tenant, {
      agent: ids.withoutDefaults,
      resources: [{ memoryStore: store, mode: "read-only" }],
    });
    await t.platform.ctx.db.prisma.memoryStore.update({ where: { id: store }, data: { name: "after-rename" } });
    const got = await t.http.get(`${tenant.base}/sessions/${s.id}`).set(tenant.auth);
    expect(got.body.resources[0].memoryStoreName).toBe("before-rename");
    const fresh = await newSession(t, tenant, {
      agent: ids.withoutDefaults,
      resources: [{ memoryStore: store, mode: "read-only" }],
    });
    expect(fresh.resources[0].memoryStoreName).toBe("after-rename");
  });
});
