import { ApiError, paginate } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { skillMd } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("skills through the SDK", () => {
  it("exposes every skills operation with typed bodies", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const created = await client.skills.create({
      body: {
        files: [
          { path: "sdk-skill/SKILL.md", content: skillMd("sdk-skill", "Made with the SDK") },
          { path: "sdk-skill/scripts/run.py", content: "print('sdk')\n" },
        ],
      },
    });
    expect(created).toEqual(expect.objectContaining({ version: 1, name: "sdk-skill" }));

    const content = await client.skills.getContent({ params: { id: created.id }, query: {} });
    const published = await client.skills.publish({
      params: { id: created.id },
      body: {
        version: content.currentVersion,
        files: content.files.map((f) => ({ ...f, content: `${f.content}#\n` })),
      },
    });
    expect(published.version).toBe(2);

    const stale = await client.skills
      .publish({ params: { id: created.id }, body: { version: 1, files: content.files } })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale).toMatchObject({ status: 409, code: "skill.version_conflict" });

    const link = await client.skills.getFileUrl({
      params: { id: created.id, path: "sdk-skill/scripts/run.py" },
      query: { version: 1 },
    });
    expect(link).toEqual(expect.objectContaining({ path: "sdk-skill/scripts/run.py", version: 1 }));
    const file = await fetch(link.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("print('sdk')\n");

    const one = await client.skills.get({ params: { id: created.id }, query: { version: 1 } });
    expect(one.files.map((f) => f.path)).toEqual(["sdk-skill/SKILL.md", "sdk-skill/scripts/run.py"]);
    const versions: number[] = [];
    for await (const v of paginate(client.skills.listVersions, { params: { id: created.id }, query: { limit: 1 } })) {
      versions.push(v.version);
    }
    expect(versions).toEqual([2, 1]);

    const archived = await client.skills.archive({ params: { id: created.id }, body: {} });
    expect(archived.archivedAt).not.toBeNull();
    const listed = await client.skills.list({ query: { status: "archived", name: "SDK" } });
    expect(listed.data.map((s) => s.id)).toEqual([created.id]);
  });
});
