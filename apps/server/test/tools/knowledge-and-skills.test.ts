import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import type { RuntimeTool, ToolRunContext } from "../../src/runtime/tools/types.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { agentConfig, api, runContext, seedSession, toolNamed } from "./support.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function toolsOf(agent: ReturnType<typeof agentConfig>): Promise<{ tools: RuntimeTool[]; run: ToolRunContext }> {
  const session = await seedSession(t, t.tenant);
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent });
  return { tools, run: runContext(t, session, agent) };
}

describe("knowledge_search", () => {
  let allowed: string;
  let hidden: string;

  beforeAll(async () => {
    const base = t.tenant.base;
    allowed = (await api(t, t.tenant, "post", `${base}/knowledge-bases`, { name: "Product docs" })).id;
    hidden = (await api(t, t.tenant, "post", `${base}/knowledge-bases`, { name: "HR files" })).id;
    await api(t, t.tenant, "post", `${base}/knowledge-bases/${allowed}/documents`, {
      title: "Refund policy",
      content: "Customers may request a refund within 30 days of purchase.",
      metadata: { team: "billing" },
    });
    await api(t, t.tenant, "post", `${base}/knowledge-bases/${allowed}/documents`, {
      title: "Shipping",
      content: "Parcels leave the warehouse within two days.",
    });
    await api(t, t.tenant, "post", `${base}/knowledge-bases/${hidden}/documents`, {
      title: "Salary refund rules",
      content: "Confidential: refund of salary advances.",
    });
  });

  it("is offered only when the agent has knowledge bases", async () => {
    expect((await toolsOf(agentConfig({ tools: ["knowledge_search"] }))).tools).toEqual([]);
    expect((await toolsOf(agentConfig({ tools: ["knowledge_search"], knowledgeBases: [] }))).tools).toEqual([]);
    const { tools } = await toolsOf(agentConfig({ tools: ["knowledge_search"], knowledgeBases: [allowed] }));
    expect(tools.map((x) => [x.name, x.readOnly])).toEqual([["knowledge_search", true]]);
  });

  it("returns the matching document of the allowed bases only", async () => {
    const { tools, run } = await toolsOf(agentConfig({ tools: ["knowledge_search"], knowledgeBases: [allowed] }));
    const result = await toolNamed(tools, "knowledge_search").execute!({ query: "refund" }, run);
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toEqual({
      results: [
        {
          citation: "[1]",
          chunkId: expect.stringMatching(/^kbchunk_/),
          documentId: expect.stringMatching(/^kbdoc_/),
          title: "Refund policy",
          offsets: [0, expect.any(Number)],
          text: expect.stringContaining("refund"),
          score: expect.any(Number),
          foundBy: ["fulltext"],
          metadata: { team: "billing" },
        },
      ],
    });
  });

  it("says so when nothing matches, and answers bad input with an error result", async () => {
    const { tools, run } = await toolsOf(agentConfig({ tools: ["knowledge_search"], knowledgeBases: [allowed] }));
    const search = toolNamed(tools, "knowledge_search");
    expect(JSON.parse((await search.execute!({ query: "submarine", mode: "fulltext" }, run)).content)).toEqual({
      results: [],
      note: "No passage matches the query",
    });
    expect(await search.execute!({ query: "" }, run)).toMatchObject({ isError: true });
    expect(await search.execute!({ query: "refund", limit: 1000 }, run)).toMatchObject({ isError: true });
  });

  it("ignores a base of another project even if the configuration names it", async () => {
    const other = await t.newTenant();
    const foreign = (await api(t, other, "post", `${other.base}/knowledge-bases`, { name: "Foreign" })).id;
    await api(t, other, "post", `${other.base}/knowledge-bases/${foreign}/documents`, {
      title: "Refund elsewhere",
      content: "refund refund refund",
    });
    const { tools, run } = await toolsOf(agentConfig({ tools: ["knowledge_search"], knowledgeBases: [foreign] }));
    const result = await toolNamed(tools, "knowledge_search").execute!({ query: "refund" }, run);
    expect(JSON.parse(result.content).results).toEqual([]);
  });
});

describe("skill_read", () => {
  let skillId: string;

  beforeAll(async () => {
    const created = await api(t, t.tenant, "post", "/v1/skills", {
      files: [
        {
          path: "SKILL.md",
          content: "---\nname: pdf-tools\ndescription: Fill PDF forms\n---\n# Use\n\nRun fill.py.\n",
        },
        { path: "scripts/fill.py", content: "print('v1')\n" },
      ],
    });
    skillId = created.id;
    const published = await t.http
      .post(`/v1/skills/${skillId}`)
      .set(t.tenant.auth)
      .send({
        version: 1,
        files: [
          { path: "SKILL.md", content: "---\nname: pdf-tools\ndescription: Fill PDF forms\n---\n# Use v2\n" },
          { path: "scripts/fill.py", content: "print('v2')\n" },
        ],
      });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  });

  it("is offered only when the agent has skills, and lists them in its description", async () => {
    expect((await toolsOf(agentConfig({ tools: ["skill_read"] }))).tools).toEqual([]);
    const { tools } = await toolsOf(agentConfig({ tools: ["skill_read"], skills: [{ skillId, version: 1 }] }));
    const tool = toolNamed(tools, "skill_read");
    expect(tool.readOnly).toBe(true);
    expect(tool.description).toContain(`- pdf-tools (${skillId}, version 1): Fill PDF forms`);
  });

  it("lists and reads the files of the pinned version, by name or id", async () => {
    const { tools, run } = await toolsOf(agentConfig({ tools: ["skill_read"], skills: [{ skillId, version: 1 }] }));
    const read = toolNamed(tools, "skill_read");
    expect(JSON.parse((await read.execute!({ skill: "pdf-tools" }, run)).content)).toEqual({
      skillId,
      name: "pdf-tools",
      version: 1,
      description: "Fill PDF forms",
      entry: "SKILL.md",
      files: [
        { path: "SKILL.md", bytes: expect.any(Number), contentType: expect.stringMatching(/^text\/markdown/) },
        { path: "scripts/fill.py", bytes: 12, contentType: expect.any(String) },
      ],
    });
    expect(await read.execute!({ skill: skillId, path: "scripts/fill.py" }, run)).toEqual({
      isError: false,
      content: "print('v1')\n",
    });
    expect((await read.execute!({ skill: "PDF-Tools", path: "./SKILL.md" }, run)).content).toContain("Run fill.py.");

    const pinned2 = await toolsOf(agentConfig({ tools: ["skill_read"], skills: [{ skillId, version: 2 }] }));
    const v2 = await toolNamed(pinned2.tools, "skill_read").execute!(
      { skill: skillId, path: "scripts/fill.py" },
      pinned2.run,
    );
    expect(v2.content).toBe("print('v2')\n");
  });

  it("answers unknown skills and paths with error results", async () => {
    const { tools, run } = await toolsOf(agentConfig({ tools: ["skill_read"], skills: [{ skillId, version: 1 }] }));
    const read = toolNamed(tools, "skill_read");
    expect(await read.execute!({ skill: "other" }, run)).toEqual({
      isError: true,
      content: 'This agent has no skill "other" (skills: pdf-tools)',
    });
    expect(await read.execute!({ skill: "pdf-tools", path: "nope.md" }, run)).toEqual({
      isError: true,
      content: 'Skill "pdf-tools" has no file "nope.md" (files: SKILL.md, scripts/fill.py)',
    });
    expect(await read.execute!({ path: "SKILL.md" }, run)).toMatchObject({ isError: true });
  });

  it("a pinned version that does not exist is reported, not fatal", async () => {
    const { tools, run } = await toolsOf(agentConfig({ tools: ["skill_read"], skills: [{ skillId, version: 9 }] }));
    const read = toolNamed(tools, "skill_read");
    expect(read.description).toContain("(none could be loaded)");
    expect(await read.execute!({ skill: skillId }, run)).toEqual({
      isError: true,
      content: `Skill ${skillId} is not available: Skill ${skillId} has no version 9`,
    });
  });
});
