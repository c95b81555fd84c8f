import { AgentPlatform, downloadWorkspaceFile } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("SDK session files", () => {
  it("uploads, lists and downloads workspace files, binary included", async () => {
    const options = { baseUrl: t.url, apiKey: t.tenant.key };
    const client = createClient(options);
    const projectId = t.tenant.projectId;
    const agent = await client.agents.create({
      params: { projectId },
      body: { name: "Coder", model: "builtin/echo", tools: ["bash", "file_read"] },
    });
    const session = await client.sessions.create({ params: { projectId }, body: { agent: agent.id } });
    const bytes = Uint8Array.from([0, 1, 2, 250, 255]);
    const uploaded = await client.sessionFiles.upload({
      params: { projectId, id: session.id },
      body: { path: "data/blob.bin", content: Buffer.from(bytes).toString("base64"), encoding: "base64" },
    });
    expect(uploaded).toEqual({ path: "data/blob.bin", bytes: 5 });
    const list = await client.sessionFiles.list({ params: { projectId, id: session.id } });
    expect(list.data.map((f) => [f.path, f.bytes])).toEqual([["data/blob.bin", 5]]);
    const back = await downloadWorkspaceFile(options, { projectId, sessionId: session.id, path: "data/blob.bin" });
    expect([...back]).toEqual([...bytes]);
    // The resource client returns a file route's body as bytes, whatever its media type.
    const platform = new AgentPlatform(options);
    const downloaded: Uint8Array = await platform.sessionFiles.download(session.id, "data/blob.bin");
    expect(downloaded).toBeInstanceOf(Uint8Array);
    expect([...downloaded]).toEqual([...bytes]);
    await expect(
      downloadWorkspaceFile(options, { projectId, sessionId: session.id, path: "missing.txt" }),
    ).rejects.toMatchObject({ status: 404, code: "session.file_not_found" });
  });
});
