import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BrowserTooling, createBrowserTooling } from "../../src/runtime/browser/index.js";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import { createAgent, message, newSession, postEvents } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle, waitForLog, waitUntil } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startTestSite, type TestSite } from "./browser-site.js";
import {
  type FakeBrowserService,
  type RemoteChromium,
  startFakeBrowserService,
  startRemoteChromium,
} from "./hosted-browser-fake.js";
import { agentConfig, runContext, seedSession, toolNamed } from "./support.js";

/** Hosted browsers (issue #34): both providers, each behind a fake service in front of a real remote Chromium. */
const MODEL = "openai-compatible/fake-model";
const KEY_A = "key-a-0123456789";
const KEY_B = "key-b-9876543210";
let t: TestApp;
let fake: FakeOpenAI;
let web: TestSite;
let remote: RemoteChromium;
let serviceA: FakeBrowserService;
let serviceB: FakeBrowserService;
const toolings: BrowserTooling[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  web = await startTestSite();
  remote = await startRemoteChromium();
  serviceA = await startFakeBrowserService(remote, KEY_A, "provider_a_cloud");
  serviceB = await startFakeBrowserService(remote, KEY_B, "provider_b");
  t = await startTestApp({
    role: "all",
    env: {
      OPENAI_COMPATIBLE_BASE_URL: fake.url,
      BROWSER_PROVIDER_A_CLOUD_SESSION_URL: serviceA.sessionUrl,
      BROWSER_PROVIDER_A_CLOUD_API_KEY: KEY_A,
      BROWSER_PROVIDER_A_CLOUD_REGIONS: "eu=eu-central-1,us=us-east-1",
      BROWSER_PROVIDER_B_SESSION_URL: serviceB.sessionUrl,
      BROWSER_PROVIDER_B_API_KEY: KEY_B,
    },
  });
});
afterAll(async () => {
  await Promise.all(toolings.map((x) => x.contexts.stop()));
  await t?.close();
  await fake?.close();
  await web?.close();
  await serviceA?.http.close();
  await serviceB?.http.close();
  await remote?.close();
});
beforeEach(() => fake.reset());

function toolingWith(env: Record<string, string>): BrowserTooling {
  const base = t.platform.ctx;
  const tooling = createBrowserTooling({ ...base, config: { ...base.config, env: { ...base.config.env, ...env } } });
  toolings.push(tooling);
  return tooling;
}

async function browse(
  tooling: BrowserTooling,
  { vaultIds, ...overrides }: Parameters<typeof agentConfig>[0] & { vaultIds?: string[] },
) {
  const agent = agentConfig({ tools: ["browser"], ...overrides });
  const session = await seedSession(t, t.tenant, { vaultIds: vaultIds ?? [] });
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent, browser: tooling });
  const tool = toolNamed(tools, "browser");
  return {
    session,
    call: (input: Record<string, unknown>) => tool.execute!(input, runContext(t, session, agent)),
    close: () => tooling.contexts.close(session.id),
  };
}

const results = (log: LogEntry[]) =>
  log.filter((e) => e.type === "agent.tool_result").map((e) => ({ isError: e.isError, text: JSON.stringify(e) }));
const call = (input: Record<string, unknown>) => ({ toolCalls: [{ name: "browser", arguments: input }] });

async function artifactNames(sessionId: string): Promise<string[]> {
  const res = await t.http.get(`${t.tenant.base}/sessions/${sessionId}/artifacts`).set(t.tenant.auth);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ name: string }>).map((a) => a.name);
}

describe("hosted browser providers, through the HTTP API", () => {
  it.each([
    ["provider_a_cloud", () => serviceA],
    ["provider_b", () => serviceB],
  ] as const)(
    "an agent on %s navigates, clicks and reads a page; turn end releases the remote session",
    async (provider, service) => {
      const before = service().sessions.length;
      fake.enqueue(
        call({ action: "navigate", url: `${web.site.url}/` }),
        call({ action: "click", text: "Contact us" }),
        call({ action: "type", label: "Your name", text: "Ada", submit: true }),
        call({ action: "read" }),
        call({ action: "screenshot" }),
        { text: "Done." },
      );
      const agent = await createAgent(t, t.tenant, {
        model: MODEL,
        tools: ["browser"],
        browser: { provider, ...(provider === "provider_a_cloud" ? { region: "eu" } : {}) },
        recordBrowser: provider === "provider_a_cloud",
      });
      const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Send our name")] });
      const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
      const done = results(log);
      expect(
        done.every((r) => r.isError === false),
        JSON.stringify(done),
      ).toBe(true);
      expect(done[0]!.text).toContain("Title: Home");
      expect(done[1]!.text).toContain("Your name");
      expect(done[3]!.text).toContain("Thanks, Ada!");
      expect(done[4]!.text).toContain('saved as artifact \\"browser-screenshot.png\\" version 1');
      // The pages were fetched by the remote browser.
      expect(web.site.requests.some((r) => r.url === "/thanks?name=Ada")).toBe(true);

      const created = service().sessions.slice(before);
      expect(created).toHaveLength(1);
      expect(created[0]!.released).toBe(true);
      if (provider === "provider_a_cloud") {
        expect(created[0]!.region).toBe("eu-central-1");
        // The trace was recorded through the remote context.
        expect(await artifactNames(session.id)).toContain("browser-recording.zip");
      }
      // The key never reaches the session's events.
      expect(JSON.stringify(log)).not.toContain(provider === "provider_a_cloud" ? KEY_A : KEY_B);
    },
  );

  it("an interrupt during a remote navigation ends the turn and releases the remote session", async () => {
    const before = serviceB.sessions.length;
    const slowBefore = web.slowRequests();
    fake.enqueue(call({ action: "navigate", url: `${web.site.url}/slow` }));
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      tools: ["browser"],
      browser: { provider: "provider_b" },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Open the slow page")] });
    await waitUntil("the remote browser to request the page", async () =>
      web.slowRequests() > slowBefore ? true : undefined,
    );
    await waitForLog(t, t.tenant, session.id, "running", (log) => log.some((e) => e.type === "agent.tool_use"));
    await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }]);
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    expect(log.at(-1).stopReason).toBe("interrupted");
    const created = serviceB.sessions.slice(before);
    expect(created).toHaveLength(1);
    await waitUntil("the remote session to be released", async () => (created[0]!.released ? true : undefined));
  });
});

describe("hosted browser providers, the tool", () => {
  it("refuses what the egress policy refuses, through the remote browser", async () => {
    const tooling = toolingWith({});
    const b = await browse(tooling, {
      browser: { provider: "provider_b" },
      egressPolicy: { deniedDomains: ["localhost"] },
    });
    const mixed = await b.call({ action: "navigate", url: `${web.site.url}/mixed` });
    expect(mixed.isError, mixed.content).toBe(false);
    const read = await b.call({ action: "read" });
    expect(`${mixed.content}\n${read.content}`).toContain("Blocked by the egress rules (not contacted)");
    expect(`${mixed.content}\n${read.content}`).toContain(`localhost:${web.site.port}/pixel-from-localhost`);
    expect(web.site.requests.map((r) => r.url)).not.toContain("/pixel-from-localhost");

    const direct = await b.call({ action: "navigate", url: `http://localhost:${web.site.port}/about` });
    expect(direct).toMatchObject({ isError: true });
    expect(direct.content).toContain("URL not opened");

    const socket = await b.call({ action: "navigate", url: `${web.site.url}/socket` });
    const socketRead = await b.call({ action: "read" });
    expect(`${socket.content}\n${socketRead.content}`).toContain(`ws://localhost:${web.site.port}/ws-from-localhost: `);

    // A redirect hop is followed by the remote browser itself: the page it lands on is refused and left.
    const redirected = await b.call({ action: "navigate", url: `${web.site.url}/redirect-to-localhost` });
    expect(redirected).toMatchObject({ isError: true });
    expect(redirected.content).toContain(`URL not opened: http://localhost:${web.site.port}/about?redirected`);
    const after = await b.call({ action: "read" });
    expect(after.content).toContain("URL: about:blank");
    await tooling.contexts.close(b.session.id);
  });

  it("answers a clear tool error for a wrong key, an unreachable service and a missing configuration", async () => {
    const wrong = await browse(toolingWith({ BROWSER_PROVIDER_B_API_KEY: "not-the-key" }), {
      browser: { provider: "provider_b" },
    });
    const refused = await wrong.call({ action: "navigate", url: `${web.site.url}/` });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain('The browser provider "provider_b" refused the credential (HTTP 401)');
    expect(refused.content).toContain("BROWSER_PROVIDER_B_API_KEY");
    expect(refused.content).not.toContain("not-the-key");

    // The session's vault may hold the key for it, over the operator's.
    const vault = await t.http
      .post("/v1/vaults")
      .set(t.tenant.auth)
      .send({ name: "browser-key", secrets: { BROWSER_PROVIDER_B_API_KEY: KEY_B } });
    expect(vault.status, JSON.stringify(vault.body)).toBe(201);
    const keyed = await browse(toolingWith({ BROWSER_PROVIDER_B_API_KEY: "not-the-key" }), {
      browser: { provider: "provider_b" },
      vaultIds: [vault.body.id],
    });
    const opened = await keyed.call({ action: "navigate", url: `${web.site.url}/about` });
    expect(opened.isError, opened.content).toBe(false);
    await keyed.close();

    const closed = await browse(toolingWith({ BROWSER_PROVIDER_A_CLOUD_SESSION_URL: "http://127.0.0.1:9/sessions" }), {
      browser: { provider: "provider_a_cloud" },
    });
    const unreachable = await closed.call({ action: "navigate", url: `${web.site.url}/` });
    expect(unreachable.isError).toBe(true);
    expect(unreachable.content).toContain(
      'The browser provider "provider_a_cloud" could not be reached at http://127.0.0.1:9',
    );

    const none = await browse(toolingWith({ BROWSER_PROVIDER_B_SESSION_URL: "", BROWSER_PROVIDER_B_API_KEY: "" }), {
      browser: { provider: "provider_b" },
    });
    const missing = await none.call({ action: "navigate", url: `${web.site.url}/` });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('The browser provider "provider_b" is not configured on this platform');
    expect(missing.content).toContain("BROWSER_PROVIDER_B_SESSION_URL (or BROWSER_PROVIDER_B_CDP_URL)");
  });

  it("BROWSER_PROVIDER_B_REGIONS maps the agent's region to the service's; a region it does not map is a tool error", async () => {
    const tooling = toolingWith({ BROWSER_PROVIDER_B_REGIONS: "eu=eu-central-1,us=us-east-1" });
    const before = serviceB.sessions.length;
    const us = await browse(tooling, { browser: { provider: "provider_b", region: "us" } });
    const opened = await us.call({ action: "navigate", url: `${web.site.url}/about` });
    expect(opened.isError, opened.content).toBe(false);
    await us.close();
    expect(serviceB.sessions.slice(before).map((s) => s.region)).toEqual(["us-east-1"]);

    const asia = await browse(tooling, { browser: { provider: "provider_b", region: "ap" } });
    const refused = await asia.call({ action: "navigate", url: `${web.site.url}/about` });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(
      'The browser provider "provider_b" offers no region "ap" on this platform (configured: eu, us; BROWSER_PROVIDER_B_REGIONS)',
    );
    expect(serviceB.sessions.length).toBe(before + 1);

    // Without a mapping the agent's region is passed on as it is.
    const plain = await browse(toolingWith({}), { browser: { provider: "provider_b", region: "ap-south-1" } });
    expect((await plain.call({ action: "navigate", url: `${web.site.url}/about` })).isError).toBe(false);
    await plain.close();
    expect(serviceB.sessions.at(-1)!.region).toBe("ap-south-1");
  });

  it("releases the remote session after the idle timeout", async () => {
    const before = serviceA.sessions.length;
    const b = await browse(toolingWith({ BROWSER_IDLE_TIMEOUT_MS: "1000" }), {
      browser: { provider: "provider_a_cloud" },
    });
    const opened = await b.call({ action: "navigate", url: `${web.site.url}/about` });
    expect(opened.isError, opened.content).toBe(false);
    const created = serviceA.sessions.slice(before);
    expect(created).toHaveLength(1);
    expect(created[0]!.released).toBe(false);
    await waitUntil("the idle remote session to be released", async () => (created[0]!.released ? true : undefined));
  });

  it("connects to a fixed CDP endpoint too, and says when the remote browser is lost mid-turn", async () => {
    const own = await startRemoteChromium();
    try {
      const tooling = toolingWith({ BROWSER_PROVIDER_B_SESSION_URL: "", BROWSER_PROVIDER_B_CDP_URL: own.cdpUrl });
      const b = await browse(tooling, { browser: { provider: "provider_b" } });
      const opened = await b.call({ action: "navigate", url: `${web.site.url}/about` });
      expect(opened.isError, opened.content).toBe(false);
      expect(opened.content).toContain("We make widgets since 1999.");
      await own.close();
      const lost = await b.call({ action: "read" });
      expect(lost.isError).toBe(true);
      expect(lost.content).toContain('the remote browser of "provider_b" was lost');
      await tooling.contexts.close(b.session.id);
    } finally {
      await own.close().catch(() => {});
    }
  });
});
