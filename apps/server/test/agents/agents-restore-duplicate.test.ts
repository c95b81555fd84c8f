import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyName } from "../../src/agents/duplicate-agent.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi, createAgent, expectError, expectInvalid, seeds } from "./helpers.js";

let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  t = await startTestApp();
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

const prisma = () => t.platform.ctx.db.prisma;

describe("restore", () => {
  it("copies the source snapshot as a new current version and leaves history untouched", async () => {
    const agent = await createAgent(api, { name: "r", system: "one", tools: ["web_fetch"] });
    await api.update(agent.id, { version: 1, system: "two", tools: [] });
    const before = (await api.versions(agent.id)).body.data;
    const res = await api.restore(agent.id, 1, 2);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: agent.id, version: 3, system: "one", tools: ["web_fetch"] });
    const after = (await api.versions(agent.id)).body.data;
    expect(after).toHaveLength(3);
    expect(after.slice(1)).toEqual(before);
  });

  it("publishes nothing when the source equals the current configuration", async () => {
    const agent = await createAgent(api, { system: "one" });
    await api.update(agent.id, { version: 1, system: "two" });
    await api.update(agent.id, { version: 2, system: "one" });
    const same = await api.restore(agent.id, 1, 3);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ version: 3, system: "one" });
    const current = await api.restore(agent.id, 3, 3);
    expect(current.body.version).toBe(3);
    expect((await api.versions(agent.id)).body.data).toHaveLength(3);
  });

  it("answers 404 agent.version_not_found for a missing source and 409 for a stale expected version", async () => {
    const agent = await createAgent(api);
    expectError(await api.restore(agent.id, 5, 1), 404, "agent.version_not_found");
    await api.update(agent.id, { version: 1, system: "two" });
    expectError(await api.restore(agent.id, 1, 1), 409, "agent.version_conflict");
    expectError(await api.restore("agent_00000000000000000000000000", 1, 1), 404, "agent.not_found");
  });

  it("takes only the expected version in the body and a version number in the path", async () => {
    const agent = await createAgent(api);
    const path = `${api.base}/${agent.id}/versions`;
    expectInvalid(await t.http.post(`${path}/1/restore`).set(t.tenant.auth).send({}), ["body.version"]);
    expectInvalid(await t.http.post(`${path}/1/restore`).set(t.tenant.auth).send({ version: 1, system: "x" }), [
      "body",
    ]);
    expectInvalid(await t.http.post(`${path}/first/restore`).set(t.tenant.auth).send({ version: 1 }), [
      "params.version",
    ]);
  });

  it("refuses with 422 agent.restore_invalid when a roster subagent was archived since", async () => {
    const sub = await createAgent(api, { name: "sub" });
    const agent = await createAgent(api, {
      multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: "helper", mode: "foreground" }] },
    });
    await api.update(agent.id, { version: 1, multiagent: null });
    await api.archive(sub.id);
    const res = await api.restore(agent.id, 1, 2);
    expectError(res, 422, "agent.restore_invalid");
    expect(res.body.error.message).toContain("Version 1");
    expect(res.body.error.message).toContain("archived");
    expect(res.body.error.details.cause).toMatchObject({ code: "agent.invalid_roster", message: expect.any(String) });
    expect((await api.get(agent.id)).body.version).toBe(2);
  });

  it("validates the roster fully even when the current version has the same one", async () => {
    const sub = await createAgent(api, { name: "sub" });
    const agent = await createAgent(api, {
      multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: "helper", mode: "foreground" }] },
    });
    await api.update(agent.id, { version: 1, system: "v2" });
    await api.archive(sub.id);
    expectError(await api.restore(agent.id, 1, 2), 422, "agent.restore_invalid");
  });

  it("refuses with 422 agent.restore_invalid when a defaults environment was archived since", async () => {
    const environmentId = await seeds(t).environment("to-archive");
    const agent = await createAgent(api, { defaults: { environmentId } });
    await api.update(agent.id, { version: 1, defaults: null });
    await prisma().environment.update({ where: { id: environmentId }, data: { archivedAt: new Date() } });
    const res = await api.restore(agent.id, 1, 2);
    expectError(res, 422, "agent.restore_invalid");
    expect(res.body.error.message).toContain("Version 1");
    expect(res.body.error.details.cause.code).toBe("agent.environment_not_found");
  });

  it("refuses when a knowledge base was deleted or a skill version removed", async () => {
    const s = seeds(t);
    const kb = await s.knowledgeBase();
    const skillId = await s.skill(1);
    const withKb = await createAgent(api, { knowledgeBases: [kb] });
    const withSkill = await createAgent(api, { skills: [{ skillId, version: 1 }] });
    await api.update(withKb.id, { version: 1, knowledgeBases: [] });
    await api.update(withSkill.id, { version: 1, skills: [] });
    await prisma().knowledgeBase.delete({ where: { id: kb } });
    await prisma().skillVersion.delete({ where: { skillId_version: { skillId, version: 1 } } });
    const kbRes = await api.restore(withKb.id, 1, 2);
    expectError(kbRes, 422, "agent.restore_invalid");
    expect(kbRes.body.error.details.cause.code).toBe("agent.unknown_knowledge_base");
    const skillRes = await api.restore(withSkill.id, 1, 2);
    expectError(skillRes, 422, "agent.restore_invalid");
    expect(skillRes.body.error.details.cause.code).toBe("agent.skill_not_found");
  });

  it("drops credentials of servers the restored snapshot does not declare", async () => {
    const agent = await createAgent(api);
    await api.update(agent.id, {
      version: 1,
      mcpServers: [{ name: "docs", url: "https://mcp.example", headers: { Authorization: "secret" } }],
    });
    const res = await api.restore(agent.id, 1, 2);
    expect(res.body).toMatchObject({ version: 3, mcpServers: [] });
    expect(await prisma().agentMcpCredential.count({ where: { agentId: agent.id } })).toBe(0);
  });
});

describe("duplicate", () => {
  it("copies the current configuration into a new agent at version 1 named `<name> (cópia)`", async () => {
    const s = seeds(t);
    const kb = await s.knowledgeBase();
    const sub = await createAgent(api, { name: "sub" });
    const source = await createAgent(api, {
      name: "Original",
      system: "first",
      knowledgeBases: [kb],
      metadata: { a: "1" },
      multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: "helper", mode: "foreground" }] },
    });
    await api.update(source.id, { version: 1, system: "current" });
    const res = await api.duplicate(source.id);
    expect(res.status).toBe(201);
    const { id, version, name, createdAt, updatedAt, ...config } = res.body;
    expect(id).not.toBe(source.id);
    expect(version).toBe(1);
    expect(name).toBe("Original (cópia)");
    const current = (await api.get(source.id)).body;
    expect(config).toEqual({
      ...Object.fromEntries(
        Object.entries(current).filter(([k]) => !["id", "version", "name", "createdAt", "updatedAt"].includes(k)),
      ),
    });
    expect(config.system).toBe("current");
    expect((await api.versions(id)).body.data).toHaveLength(1);
  });

  it("takes an optional name and model", async () => {
    const source = await createAgent(api, { name: "src" });
    const res = await api.duplicate(source.id, { name: "Renamed", model: { id: "echo", provider: "builtin" } });
    expect(res.body).toMatchObject({ name: "Renamed", model: { id: "echo", provider: "builtin" }, version: 1 });
    expectInvalid(await api.duplicate(source.id, { name: "" }), ["body.name"]);
    expectInvalid(await api.duplicate(source.id, { system: "x" }), ["body"]);
  });

  it("shortens a long source name so the copy fits 200 characters", async () => {
    const source = await createAgent(api, { name: "n".repeat(200) });
    const res = await api.duplicate(source.id);
    expect(res.body.name).toBe(`${"n".repeat(192)} (cópia)`);
    expect(res.body.name).toHaveLength(200);
    expect(copyName(`${"a".repeat(191)}😀😀`)).toHaveLength(199);
  });

  it("duplicates an archived source; the clone is active and the source stays archived", async () => {
    const source = await createAgent(api, { name: "old" });
    await api.archive(source.id);
    const res = await api.duplicate(source.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ version: 1, archivedAt: null, name: "old (cópia)" });
    expect((await api.get(source.id)).body.archivedAt).not.toBeNull();
    expect((await api.update(res.body.id, { version: 1, system: "alive" })).body.version).toBe(2);
  });

  it("refuses with 422 agent.duplicate_invalid when a referenced skill version vanished", async () => {
    const skillId = await seeds(t).skill(1);
    const source = await createAgent(api, { name: "skilled", skills: [{ skillId, version: 1 }] });
    await prisma().skillVersion.delete({ where: { skillId_version: { skillId, version: 1 } } });
    const res = await api.duplicate(source.id);
    expectError(res, 422, "agent.duplicate_invalid");
    expect(res.body.error.message).toContain(skillId);
    expect(res.body.error.details.cause.code).toBe("agent.skill_not_found");
  });

  it("refuses with 422 agent.duplicate_invalid when a knowledge base was deleted", async () => {
    const kb = await seeds(t).knowledgeBase();
    const source = await createAgent(api, { knowledgeBases: [kb] });
    await prisma().knowledgeBase.delete({ where: { id: kb } });
    const res = await api.duplicate(source.id);
    expectError(res, 422, "agent.duplicate_invalid");
    expect(res.body.error.details.cause).toMatchObject({ code: "agent.unknown_knowledge_base" });
  });

  it("refuses an incompatible override model with 422 agent.duplicate_invalid", async () => {
    const source = await createAgent(api);
    const res = await api.duplicate(source.id, { model: "openai/gpt-5" });
    expectError(res, 422, "agent.duplicate_invalid");
    expect(res.body.error.details.cause.code).toBe("agent.invalid_model");
  });

  it("refuses when a roster subagent was archived since", async () => {
    const sub = await createAgent(api);
    const source = await createAgent(api, {
      multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: "helper", mode: "foreground" }] },
    });
    await api.archive(sub.id);
    const res = await api.duplicate(source.id);
    expectError(res, 422, "agent.duplicate_invalid");
    expect(res.body.error.details.cause.code).toBe("agent.invalid_roster");
  });

  it("answers 404 for an unknown source", async () => {
    expectError(await api.duplicate("agent_00000000000000000000000000"), 404, "agent.not_found");
  });
});
