import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi, createAgent, expectError, seeds } from "./helpers.js";

let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  // Anthropic is configured on this server; OpenAI and OpenAI-compatible are not.
  t = await startTestApp({ env: { ANTHROPIC_API_KEY: "sk-ant-test" } });
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

const coordinatorOf = (...roster: Record<string, unknown>[]) => ({
  multiagent: { type: "coordinator", roster, budget: { maxDelegations: 5 } },
});
const entry = (agentId: string, role = "helper", extra: Record<string, unknown> = {}) => ({
  agentId,
  role,
  mode: "foreground",
  ...extra,
});

describe("model", () => {
  it("accepts builtin/echo and a configured provider in both forms", async () => {
    expect((await api.create({ name: "m", model: "builtin/echo" })).status).toBe(201);
    expect((await api.create({ name: "m", model: "anthropic/claude-sonnet-4-5" })).status).toBe(201);
    const object = await api.create({
      name: "m",
      model: { id: "claude-sonnet-4-5", provider: "anthropic", temperature: 0.5, maxOutputTokens: 2048 },
    });
    expect(object.status).toBe(201);
    expect(object.body.model).toEqual({
      id: "claude-sonnet-4-5",
      provider: "anthropic",
      temperature: 0.5,
      maxOutputTokens: 2048,
    });
  });

  it("refuses an unknown provider with 422 agent.invalid_model", async () => {
    const res = await api.create({ name: "m", model: "acme/model-1" });
    expectError(res, 422, "agent.invalid_model");
    expect(res.body.error.message).toContain("acme");
    expectError(await api.create({ name: "m", model: { id: "acme/model-1" } }), 422, "agent.invalid_model");
    expectError(await api.create({ name: "m", model: "builtin/parrot" }), 422, "agent.invalid_model");
  });

  it("refuses a provider without credentials on this server, naming the variable to set", async () => {
    const res = await api.create({ name: "m", model: "openai/gpt-5" });
    expectError(res, 422, "agent.invalid_model");
    expect(res.body.error.message).toContain("OPENAI_API_KEY");
    const compatible = await api.create({ name: "m", model: "openai-compatible/llama" });
    expectError(compatible, 422, "agent.invalid_model");
    expect(compatible.body.error.message).toContain("OPENAI_COMPATIBLE_BASE_URL");
  });

  it("refuses malformed model strings in the schema", async () => {
    expect((await api.create({ name: "m", model: "no-slash" })).status).toBe(400);
    expect((await api.create({ name: "m", model: { id: "x", provider: "acme" } })).status).toBe(400);
  });

  it("checks the model on update only when it changes", async () => {
    const agent = await createAgent(api);
    expectError(await api.update(agent.id, { version: 1, model: "openai/gpt-5" }), 422, "agent.invalid_model");
    const ok = await api.update(agent.id, { version: 1, model: "anthropic/claude-haiku-4-5" });
    expect(ok.body).toMatchObject({ version: 2, model: "anthropic/claude-haiku-4-5" });
  });

  it("checks roster model overrides", async () => {
    const sub = await createAgent(api);
    const res = await api.create({
      name: "c",
      model: "builtin/echo",
      ...coordinatorOf(entry(sub.id, "helper", { model: "openai/gpt-5" })),
    });
    expectError(res, 422, "agent.invalid_model");
    expect(res.body.error.message).toContain("helper");
  });
});

describe("roster", () => {
  it("stores the current version when the entry omits it, and keeps a pinned one", async () => {
    const sub = await createAgent(api, { name: "sub" });
    await api.update(sub.id, { version: 1, system: "v2" });
    const other = await createAgent(api, { name: "other" });
    const coordinator = await createAgent(
      api,
      coordinatorOf(
        entry(sub.id, "researcher", { readonly: true, outputSchema: { type: "object" } }),
        entry(sub.id, "old-researcher", { version: 1, mode: "background" }),
        entry(other.id, "writer", { model: "anthropic/claude-sonnet-4-5" }),
      ),
    );
    expect(coordinator.multiagent).toEqual({
      type: "coordinator",
      budget: { maxDelegations: 5 },
      roster: [
        {
          agentId: sub.id,
          version: 2,
          role: "researcher",
          mode: "foreground",
          readonly: true,
          outputSchema: { type: "object" },
        },
        { agentId: sub.id, version: 1, role: "old-researcher", mode: "background" },
        { agentId: other.id, version: 1, role: "writer", mode: "foreground", model: "anthropic/claude-sonnet-4-5" },
      ],
    });
  });

  it("refuses a missing target, a missing pinned version, another project's agent", async () => {
    const missing = await api.create({
      name: "c",
      model: "builtin/echo",
      ...coordinatorOf(entry("agent_00000000000000000000000000")),
    });
    expectError(missing, 422, "agent.invalid_roster");
    const sub = await createAgent(api);
    expectError(
      await api.create({ name: "c", model: "builtin/echo", ...coordinatorOf(entry(sub.id, "helper", { version: 9 })) }),
      422,
      "agent.invalid_roster",
    );
    const foreign = await createAgent(agentsApi(t, await t.newTenant()));
    expectError(
      await api.create({ name: "c", model: "builtin/echo", ...coordinatorOf(entry(foreign.id)) }),
      422,
      "agent.invalid_roster",
    );
  });

  it("refuses an archived target", async () => {
    const sub = await createAgent(api);
    await api.archive(sub.id);
    const res = await api.create({ name: "c", model: "builtin/echo", ...coordinatorOf(entry(sub.id)) });
    expectError(res, 422, "agent.invalid_roster");
    expect(res.body.error.message).toContain("archived");
  });

  it("refuses the coordinator itself", async () => {
    const agent = await createAgent(api);
    const res = await api.update(agent.id, { version: 1, ...coordinatorOf(entry(agent.id)) });
    expectError(res, 422, "agent.invalid_roster");
    expect(res.body.error.message).toContain("itself");
  });

  it("refuses a target that is itself a coordinator (depth 1)", async () => {
    const leaf = await createAgent(api);
    const middle = await createAgent(api, coordinatorOf(entry(leaf.id)));
    const res = await api.create({ name: "top", model: "builtin/echo", ...coordinatorOf(entry(middle.id)) });
    expectError(res, 422, "agent.invalid_roster");
    expect(res.body.error.message).toContain("coordinator");
  });

  it("re-validates the roster on update only when multiagent changes; pinned entries keep working", async () => {
    const sub = await createAgent(api);
    const coordinator = await createAgent(api, coordinatorOf(entry(sub.id)));
    await api.archive(sub.id);
    // An unrelated edit is not blocked by the archived subagent.
    const renamed = await api.update(coordinator.id, { version: 1, name: "renamed" });
    expect(renamed.body).toMatchObject({ version: 2, name: "renamed" });
    // Resending the same multiagent changes nothing and is not re-validated.
    const same = await api.update(coordinator.id, { version: 2, multiagent: coordinator.multiagent });
    expect(same.body.version).toBe(2);
    // A changed multiagent is validated and refused.
    const changed = await api.update(coordinator.id, {
      version: 2,
      multiagent: { ...coordinator.multiagent, budget: { maxDelegations: 1 } },
    });
    expectError(changed, 422, "agent.invalid_roster");
  });
});

describe("knowledge bases", () => {
  it("accepts bases of the project and refuses others with 422 agent.unknown_knowledge_base", async () => {
    const s = seeds(t);
    const kb = await s.knowledgeBase("docs");
    const agent = await createAgent(api, { knowledgeBases: [kb] });
    expect(agent.knowledgeBases).toEqual([kb]);

    const missing = await api.create({ name: "x", model: "builtin/echo", knowledgeBases: [kb, "kb_missing"] });
    expectError(missing, 422, "agent.unknown_knowledge_base");
    expect(missing.body.error.message).toContain("kb_missing");

    const other = await t.newTenant();
    const foreignKb = await seeds(t, other).knowledgeBase("theirs");
    expectError(
      await api.update(agent.id, { version: 1, knowledgeBases: [foreignKb] }),
      422,
      "agent.unknown_knowledge_base",
    );
  });
});

describe("defaults", () => {
  it("stores vault and memory store ids, and the store's real name", async () => {
    const s = seeds(t);
    const environmentId = await s.environment("work");
    const vaultId = await s.vault("team-secrets");
    const storeId = await s.memoryStore("notes");
    const otherStoreId = await s.memoryStore("facts");
    const agent = await createAgent(api, {
      defaults: {
        environmentId,
        vaultIds: ["team-secrets"],
        resources: [
          { memoryStoreId: "notes", memoryStoreName: "notes", mode: "read-write" },
          { memoryStoreId: otherStoreId, memoryStoreName: "a name that is not the store's", mode: "read-only" },
        ],
      },
    });
    expect(agent.defaults).toEqual({
      environmentId,
      vaultIds: [vaultId],
      resources: [
        { memoryStoreId: storeId, memoryStoreName: "notes", mode: "read-write" },
        { memoryStoreId: otherStoreId, memoryStoreName: "facts", mode: "read-only" },
      ],
    });
  });

  it("refuses a missing or archived environment with 422 agent.environment_not_found", async () => {
    expectError(
      await api.create({ name: "x", model: "builtin/echo", defaults: { environmentId: "env_missing" } }),
      422,
      "agent.environment_not_found",
    );
    const archived = await seeds(t).environment("old", true);
    const res = await api.create({ name: "x", model: "builtin/echo", defaults: { environmentId: archived } });
    expectError(res, 422, "agent.environment_not_found");
    expect(res.body.error.message).toContain("archived");
    const foreign = await seeds(t, await t.newTenant()).environment("theirs");
    expectError(
      await api.create({ name: "x", model: "builtin/echo", defaults: { environmentId: foreign } }),
      422,
      "agent.environment_not_found",
    );
  });

  it("refuses a missing vault with 422 agent.vault_not_found (workspace-scoped)", async () => {
    expectError(
      await api.create({ name: "x", model: "builtin/echo", defaults: { vaultIds: ["vault_missing"] } }),
      422,
      "agent.vault_not_found",
    );
    expectError(
      await api.create({ name: "x", model: "builtin/echo", defaults: { vaultIds: ["no-such-vault"] } }),
      422,
      "agent.vault_not_found",
    );
    const foreign = await seeds(t, await t.newTenant()).vault("their-vault");
    expectError(
      await api.create({ name: "x", model: "builtin/echo", defaults: { vaultIds: [foreign] } }),
      422,
      "agent.vault_not_found",
    );
  });

  it("refuses a missing memory store with 422 agent.memory_store_not_found", async () => {
    const res = await api.create({
      name: "x",
      model: "builtin/echo",
      defaults: { resources: [{ memoryStoreId: "ms_missing", memoryStoreName: "x", mode: "read-only" }] },
    });
    expectError(res, 422, "agent.memory_store_not_found");
    const foreign = await seeds(t, await t.newTenant()).memoryStore("theirs");
    expectError(
      await api.create({
        name: "x",
        model: "builtin/echo",
        defaults: { resources: [{ memoryStoreId: foreign, memoryStoreName: "theirs", mode: "read-only" }] },
      }),
      422,
      "agent.memory_store_not_found",
    );
  });

  it("does not re-check unchanged defaults on update", async () => {
    const environmentId = await seeds(t).environment("soon-archived");
    const agent = await createAgent(api, { defaults: { environmentId } });
    await t.platform.ctx.db.prisma.environment.update({
      where: { id: environmentId },
      data: { archivedAt: new Date() },
    });
    expect((await api.update(agent.id, { version: 1, system: "still editable" })).body.version).toBe(2);
    expectError(
      await api.update(agent.id, { version: 2, defaults: { environmentId, vaultIds: [] } }),
      422,
      "agent.environment_not_found",
    );
  });
});

describe("skills and serverless tools", () => {
  it("accepts existing pinned versions", async () => {
    const s = seeds(t);
    const skillId = await s.skill(2);
    const toolId = await s.serverlessTool(1);
    const agent = await createAgent(api, {
      skills: [{ skillId, version: 2 }],
      serverlessTools: [{ toolId, version: 1 }],
    });
    expect(agent).toMatchObject({ skills: [{ skillId, version: 2 }], serverlessTools: [{ toolId, version: 1 }] });
  });

  it("refuses a missing skill, a missing version or an archived skill with 422 agent.skill_not_found", async () => {
    const s = seeds(t);
    const skillId = await s.skill(1);
    const archivedSkill = await s.skill(1, true);
    const cases = [
      { skillId: "skill_missing", version: 1 },
      { skillId, version: 2 },
      { skillId: archivedSkill, version: 1 },
    ];
    for (const ref of cases) {
      expectError(await api.create({ name: "x", model: "builtin/echo", skills: [ref] }), 422, "agent.skill_not_found");
    }
    const foreign = await seeds(t, await t.newTenant()).skill(1);
    expectError(
      await api.create({ name: "x", model: "builtin/echo", skills: [{ skillId: foreign, version: 1 }] }),
      422,
      "agent.skill_not_found",
    );
  });

  it("refuses a missing serverless tool or version with 422 serverless.tool_not_found", async () => {
    const toolId = await seeds(t).serverlessTool(1);
    for (const ref of [
      { toolId: "stool_missing", version: 1 },
      { toolId, version: 3 },
    ]) {
      const res = await api.create({ name: "x", model: "builtin/echo", serverlessTools: [ref] });
      expectError(res, 422, "serverless.tool_not_found");
    }
    const foreign = await seeds(t, await t.newTenant()).serverlessTool(1);
    expectError(
      await api.create({ name: "x", model: "builtin/echo", serverlessTools: [{ toolId: foreign, version: 1 }] }),
      422,
      "serverless.tool_not_found",
    );
  });

  it("reports the first failing field when several are wrong", async () => {
    const res = await api.create({
      name: "x",
      model: "builtin/echo",
      knowledgeBases: ["kb_missing"],
      skills: [{ skillId: "skill_missing", version: 1 }],
    });
    expectError(res, 422, "agent.unknown_knowledge_base");
  });
});
