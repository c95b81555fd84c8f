import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startTestSite, type TestSite } from "./browser-site.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let web: TestSite;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  web = await startTestSite();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await web?.close();
});
beforeEach(() => fake.reset());

const results = (log: LogEntry[]) =>
  log.filter((e) => e.type === "agent.tool_result").map((e) => ({ isError: e.isError, text: JSON.stringify(e) }));

async function artifactNames(sessionId: string): Promise<Record<string, { url: string; contentType: string }>> {
  const res = await t.http.get(`${t.tenant.base}/sessions/${sessionId}/artifacts`).set(t.tenant.auth);
  expect(res.status).toBe(200);
  return Object.fromEntries(
    (res.body.data as Array<{ name: string; url: string; contentType: string }>).map((a) => [a.name, a]),
  );
}

describe("an agent with the browser tool, through the HTTP API", () => {
  it("completes a browsing task on a loopback site, with its screenshot and recording as artifacts", async () => {
    const call = (input: Record<string, unknown>) => ({ toolCalls: [{ name: "browser", arguments: input }] });
    fake.enqueue(
      call({ action: "navigate", url: `${web.site.url}/live` }),
      call({ action: "navigate", url: `${web.site.url}/` }),
      call({ action: "click", text: "Contact us" }),
      call({ action: "type", label: "Your name", text: "Ada", submit: true }),
      call({ action: "screenshot" }),
      { text: "The site thanked Ada." },
    );
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["browser"], recordBrowser: true });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Send our name")] });
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);

    const done = results(log);
    expect(done).toHaveLength(5);
    expect(
      done.every((r) => r.isError === false),
      JSON.stringify(done),
    ).toBe(true);
    expect(done[2]!.text).toContain("Your name");
    expect(done[3]!.text).toContain("Thanks, Ada!");
    expect(done[4]!.text).toContain('saved as artifact \\"browser-screenshot.png\\" version 1');
    expect(log.filter((e) => e.type === "agent.message").at(-1).content[0].text).toBe("The site thanked Ada.");

    // The recording is written before the turn's end is committed: it is there as soon as the session is idle.
    const artifacts = await artifactNames(session.id);
    expect(artifacts["browser-screenshot.png"]).toMatchObject({ contentType: "image/png" });
    expect(artifacts["browser-recording.zip"]).toMatchObject({ contentType: "application/zip" });
    const zip = Buffer.from(await (await fetch(artifacts["browser-recording.zip"]!.url)).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe("PK");
    expect(zip.includes(Buffer.from("trace.trace"))).toBe(true);
    expect(zip.includes(Buffer.from("trace.network"))).toBe(true);

    // The context closed with the turn: the live page's connection is gone.
    await expect.poll(() => web.openStreams(), { timeout: 10_000 }).toBe(0);
  });

  it("records nothing when recordBrowser is off", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "browser", arguments: { action: "navigate", url: `${web.site.url}/about` } }] },
      { text: "They make widgets." },
    );
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["browser"] });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("What do they do?")] });
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    expect(results(log)[0]!.text).toContain("We make widgets since 1999.");
    expect(Object.keys(await artifactNames(session.id))).toEqual([]);
  });
});
