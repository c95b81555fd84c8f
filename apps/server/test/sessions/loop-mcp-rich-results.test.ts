import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "../support/fake-anthropic.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { type ReferenceMcpServer, startReferenceMcpServer } from "../support/reference-mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession } from "./helpers.js";
import { type LogEntry, waitForIdle } from "./loop-helpers.js";

// Images, audio and resources of MCP tool results (the official reference server), as stored in the log and as two
// provider fakes receive them: Anthropic's Messages API takes images in tool results; Chat Completions does not, and
// its vision models take them in a user message (the fake refuses images anywhere else, or to other models).
let t: TestApp;
let anthropic: FakeAnthropic;
let openai: FakeOpenAI;
let everything: ReferenceMcpServer;

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  openai = await startFakeOpenAI({ visionModels: ["vision-model", "catalogued-vision"] });
  everything = await startReferenceMcpServer();
  t = await startTestApp({
    role: "all",
    env: {
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: "test-key",
      OPENAI_COMPATIBLE_BASE_URL: openai.url,
      MODEL_CATALOGUE: JSON.stringify({ "openai-compatible/catalogued-vision": { capabilities: { images: true } } }),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await anthropic?.close();
  await openai?.close();
  await everything?.close();
});

const mcpResult = (log: LogEntry[]) => log.find((e) => e.type === "agent.mcp_tool_result");

async function runOneTool(model: unknown, tool: string) {
  const agent = await createAgent(t, t.tenant, {
    model,
    mcpServers: [{ name: "everything", url: everything.url }],
    toolPermissions: { [`everything__${tool}`]: "always_allow" },
  });
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message(`call ${tool}`)] });
  const log = await waitForIdle(t, t.tenant, session.id);
  return { sessionId: session.id as string, log };
}

/** The bytes of an artifact version, through the signed link the artifacts list gives. */
async function artifactBytes(sessionId: string, artifactId: string): Promise<{ name: string; bytes: Buffer }> {
  const list = await t.http.get(`${t.tenant.base}/sessions/${sessionId}/artifacts`).set(t.tenant.auth);
  expect(list.status).toBe(200);
  for (const artifact of list.body.data as { name: string; versions: { id: string; url: string }[] }[]) {
    const version = artifact.versions.find((v) => v.id === artifactId);
    if (version) {
      const response = await fetch(version.url);
      expect(response.status).toBe(200);
      return { name: artifact.name, bytes: Buffer.from(await response.arrayBuffer()) };
    }
  }
  throw new Error(`artifact ${artifactId} not listed`);
}

describe("rich MCP tool results", () => {
  it("stores an image as an artifact and gives it to a model that takes images as an image part", async () => {
    anthropic.enqueue({ toolCalls: [{ name: "everything__get-tiny-image", input: {} }] }, { text: "A logo." });
    const { sessionId, log } = await runOneTool("anthropic/claude-test", "get-tiny-image");
    expect(log.at(-1).stopReason).toBe("end_turn");
    const result = mcpResult(log);
    expect(result.isError).toBe(false);
    const image = result.content.find((p: { type: string }) => p.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png", artifactId: expect.stringMatching(/^art_/) });
    expect(result.content.filter((p: { type: string }) => p.type === "text").length).toBeGreaterThan(0);
    // Stored, not pasted: no base64 in the log.
    expect(JSON.stringify(log)).not.toContain("iVBORw0KGgo");
    const stored = await artifactBytes(sessionId, image.artifactId);
    expect(stored.name).toBe("mcp/everything/get-tiny-image-1.png");
    expect(stored.bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(image.bytes).toBe(stored.bytes.length);

    // The second call carried the image inside the tool result, and the fake (which refuses what the API refuses)
    // answered it.
    const second = anthropic.requests.at(-1)!;
    expect(second.status).toBe(200);
    const toolResult = second.body.messages
      .flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
      .find((b: { type: string }) => b.type === "tool_result");
    const imagePart = toolResult.content.find((b: { type: string }) => b.type === "image");
    expect(imagePart.source).toEqual({
      type: "base64",
      media_type: "image/png",
      data: stored.bytes.toString("base64"),
    });
  });

  it("tells a model that takes no images in tool results what the image was and where it is kept", async () => {
    openai.enqueue(
      { toolCalls: [{ name: "everything__get-tiny-image", arguments: {} }] },
      { text: "I was told about an image." },
    );
    const { log } = await runOneTool("openai-compatible/fake-model", "get-tiny-image");
    expect(log.at(-1).stopReason).toBe("end_turn");
    const image = mcpResult(log).content.find((p: { type: string }) => p.type === "image");
    const toolMessage = openai.requests.at(-1)!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(typeof toolMessage.content).toBe("string");
    expect(toolMessage.content).toContain(`[image image/png`);
    expect(toolMessage.content).toContain(image.artifactId);
    expect(toolMessage.content).toContain("not shown: this model does not take images in tool results");
    expect(toolMessage.content).not.toContain("iVBORw0KGgo");
  });

  for (const model of [
    { id: "openai-compatible/vision-model", capabilities: { images: true } },
    "openai-compatible/catalogued-vision",
  ]) {
    const name = typeof model === "string" ? model : `${model.id} (agent's capabilities)`;
    it(`shows a Chat Completions vision model the image in a user message right after the tool results: ${name}`, async () => {
      openai.enqueue({ toolCalls: [{ name: "everything__get-tiny-image", arguments: {} }] }, { text: "A logo." });
      const { sessionId, log } = await runOneTool(model, "get-tiny-image");
      expect(log.at(-1).stopReason).toBe("end_turn");
      const image = mcpResult(log).content.find((p: { type: string }) => p.type === "image");
      const stored = await artifactBytes(sessionId, image.artifactId);
      const second = openai.requests.at(-1)!;
      // The fake refuses images outside user messages and to models without vision: it answered.
      expect(second.status).toBe(200);
      const messages = second.body.messages as { role: string; content: unknown }[];
      const at = messages.findIndex((m) => m.role === "tool");
      expect(typeof messages[at]!.content).toBe("string");
      expect(messages[at]!.content).toContain(`stored as session artifact ${image.artifactId}`);
      expect(messages[at]!.content).toContain("shown in the message after the tool results");
      expect(messages[at]!.content).not.toContain("iVBORw0KGgo");
      expect(messages[at + 1]).toEqual({
        role: "user",
        content: [
          {
            type: "text",
            text: `[Images from the tool results above: everything__get-tiny-image (${image.artifactId})]`,
          },
          { type: "image_url", image_url: { url: `data:image/png;base64,${stored.bytes.toString("base64")}` } },
        ],
      });
      expect(messages).toHaveLength(at + 2);
    });
  }

  it("an agent that says its Chat Completions model takes images when it does not: the provider's 400 ends the turn", async () => {
    openai.enqueue({ toolCalls: [{ name: "everything__get-tiny-image", arguments: {} }] });
    const { log } = await runOneTool(
      { id: "openai-compatible/text-only", capabilities: { images: true } },
      "get-tiny-image",
    );
    expect(openai.requests.at(-1)!.status).toBe(400);
    expect(log.at(-1).stopReason).toBe("error");
    const error = log.find((e) => e.type === "session.error");
    expect(error.error.code).toBe("model.provider_error");
    expect(error.error.message).toContain("image_url is only supported by certain models");
  });

  it("reads linked resources into the result: text inline, binary stored as an artifact", async () => {
    openai.enqueue(
      { toolCalls: [{ name: "everything__get-resource-links", arguments: { count: 2 } }] },
      { text: "Read them." },
    );
    const reads = everything.rpcCalls().filter((c) => c.startsWith("resources/read")).length;
    const { sessionId, log } = await runOneTool("openai-compatible/fake-model", "get-resource-links");
    const content = mcpResult(log).content as { type: string; text?: string; uri?: string; artifactId?: string }[];
    const texts = content.filter((p) => p.type === "text").map((p) => p.text!);
    expect(texts.some((x) => x.startsWith("[resource demo://resource/dynamic/text/2]\n"))).toBe(true);
    const blob = content.find((p) => p.type === "resource")!;
    expect(blob.uri).toBe("demo://resource/dynamic/blob/1");
    expect((await artifactBytes(sessionId, blob.artifactId!)).bytes.length).toBeGreaterThan(0);
    expect(everything.rpcCalls().filter((c) => c.startsWith("resources/read")).length - reads).toBe(2);
    const toolMessage = openai.requests.at(-1)!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMessage.content).toContain("[binary resource demo://resource/dynamic/blob/1");
  });
});
