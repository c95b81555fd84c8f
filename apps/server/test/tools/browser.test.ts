import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound } from "../../src/lib/outbound/index.js";
import { type BrowserTooling, createBrowserTooling } from "../../src/runtime/browser/index.js";
import { assembleToolset } from "../../src/runtime/loop/toolset.js";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import type { RuntimeTool, SessionRuntimeInfo } from "../../src/runtime/tools/types.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startTestSite, type TestSite } from "./browser-site.js";
import { agentConfig, runContext, seedSession, toolNamed } from "./support.js";

let t: TestApp;
let web: TestSite;
let tooling: BrowserTooling;
/** Only 127.0.0.1 is opened: the site is reachable, the "secret" server on 127.0.0.2 is not. */
let strict: BrowserTooling;

beforeAll(async () => {
  t = await startTestApp();
  web = await startTestSite();
  tooling = createBrowserTooling(withEnv({ BROWSER_ACTION_TIMEOUT_MS: "1500" }));
  const outbound = createOutbound({ allowCidrs: "127.0.0.1/32" });
  strict = createBrowserTooling({ ...withEnv({ BROWSER_ACTION_TIMEOUT_MS: "1500" }), outbound });
});

afterAll(async () => {
  await tooling?.contexts.stop();
  await strict?.contexts.stop();
  await web?.close();
  await t?.close();
});

/** The platform's context with extra settings (each tooling reads its own). */
function withEnv(env: Record<string, string>, base = t.platform.ctx) {
  return { ...base, config: { ...base.config, env: { ...base.config.env, ...env } } };
}

interface Browsing {
  tool: RuntimeTool;
  session: SessionRuntimeInfo;
  call(input: Record<string, unknown>): Promise<{ content: string; isError: boolean }>;
}

async function browse(
  using: BrowserTooling = tooling,
  overrides: Parameters<typeof agentConfig>[0] = {},
): Promise<Browsing> {
  const agent = agentConfig({ tools: ["browser"], ...overrides });
  const session = await seedSession(t, t.tenant);
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent, browser: using });
  const tool = toolNamed(tools, "browser");
  return { tool, session, call: (input) => tool.execute!(input, runContext(t, session, agent)) };
}

async function artifacts(sessionId: string) {
  const res = await t.http.get(`${t.tenant.base}/sessions/${sessionId}/artifacts`).set(t.tenant.auth);
  expect(res.status).toBe(200);
  return res.body.data as Array<{
    name: string;
    contentType: string;
    bytes: number;
    url: string;
    latestVersion: number;
  }>;
}

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe("browser tool", () => {
  it("is offered only when listed, with every action, and not read-only", async () => {
    const session = await seedSession(t, t.tenant);
    const none = await resolveSessionTools({ ctx: t.platform.ctx, session, agent: agentConfig(), browser: tooling });
    expect(none.map((x) => x.name)).not.toContain("browser");
    const { tool } = await browse();
    expect(tool).toMatchObject({ origin: "builtin", readOnly: false });
    expect((tool.inputSchema.properties as { action: { enum: string[] } }).action.enum).toEqual([
      "navigate",
      "read",
      "back",
      "screenshot",
      "click",
      "type",
    ]);
  });

  it("navigates and reads a page as text with its links", async () => {
    const b = await browse();
    const opened = await b.call({ action: "navigate", url: `${web.site.url}/` });
    expect(opened.isError, opened.content).toBe(false);
    expect(opened.content).toContain("Status: 200");
    expect(opened.content).toContain("Title: Home");
    expect(opened.content).toContain(`[Contact us](${web.site.url}/contact)`);
    const read = await b.call({ action: "read", offset: 0, maxChars: 10 });
    expect(read.content).toContain("cut: read with offset 10 for more");
    await tooling.contexts.close(b.session.id);
  });

  it("clicks a link, fills and submits a form, and goes back", async () => {
    const b = await browse();
    await b.call({ action: "navigate", url: `${web.site.url}/` });
    const contact = await b.call({ action: "click", text: "Contact us" });
    expect(contact.isError, contact.content).toBe(false);
    expect(contact.content).toContain(`URL: ${web.site.url}/contact`);
    expect(contact.content).toContain('input "Your name" name=name placeholder="Ada"');
    const thanks = await b.call({ action: "type", label: "Your name", text: "Grace", submit: true });
    expect(thanks.isError, thanks.content).toBe(false);
    expect(thanks.content).toContain(`URL: ${web.site.url}/thanks?name=Grace`);
    expect(thanks.content).toContain("Thanks, Grace!");
    const back = await b.call({ action: "back" });
    expect(back.content).toContain(`URL: ${web.site.url}/contact`);
    const byCss = await b.call({ action: "click", selector: "button[type=submit]" });
    expect(byCss.content).toContain(`URL: ${web.site.url}/thanks?name=`);
    await tooling.contexts.close(b.session.id);
  });

  it("answers a readable tool error for a missing element and bad input, and the page stays usable", async () => {
    const b = await browse();
    await b.call({ action: "navigate", url: `${web.site.url}/` });
    const missing = await b.call({ action: "click", text: "No such link anywhere" });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.content).toContain('No visible element has the text "No such link anywhere" on the page');
    const both = await b.call({ action: "click", text: "About", selector: "a" });
    expect(both).toMatchObject({ isError: true });
    expect(both.content).toContain("give exactly one of `text` and `selector`");
    const scheme = await b.call({ action: "navigate", url: "file:///etc/passwd" });
    expect(scheme).toMatchObject({ isError: true, content: expect.stringContaining("Only http and https") });
    const about = await b.call({ action: "click", text: "About" });
    expect(about.content).toContain("We make widgets since 1999.");
    await tooling.contexts.close(b.session.id);
  });

  it("saves a screenshot as a PNG artifact of the session", async () => {
    const b = await browse();
    await b.call({ action: "navigate", url: `${web.site.url}/about` });
    const shot = await b.call({ action: "screenshot" });
    expect(shot.isError, shot.content).toBe(false);
    expect(shot.content).toMatch(/saved as artifact "browser-screenshot.png" version 1 \(\d+ bytes, PNG\)/);
    const list = await artifacts(b.session.id);
    const png = list.find((a) => a.name === "browser-screenshot.png")!;
    expect(png).toMatchObject({ contentType: "image/png", latestVersion: 1 });
    const bytes = await download(png.url);
    expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(bytes.length).toBe(png.bytes);
    await tooling.contexts.close(b.session.id);
  });

  it("refuses a loopback address the operator did not open: the page's requests never reach it", async () => {
    const b = await browse(strict);
    const direct = await b.call({ action: "navigate", url: `${web.secret.url}/` });
    expect(direct).toMatchObject({ isError: true });
    expect(direct.content).toContain("is a loopback address");
    const leaky = await b.call({ action: "navigate", url: `${web.site.url}/leaky` });
    expect(leaky.isError, leaky.content).toBe(false);
    expect(leaky.content).toContain("Leaky page");
    // The image and the fetch are refused by the proxy; the note lists what was blocked.
    const again = await b.call({ action: "read" });
    expect(`${leaky.content}\n${again.content}`).toContain("Blocked by the egress rules (not contacted)");
    expect(`${leaky.content}\n${again.content}`).toContain(`${web.secret.url.replace("http://", "")}`);
    expect(web.secret.hits).toEqual([]);
    await strict.contexts.close(b.session.id);
  });

  it("applies the egress host policy of the workspace and the agent to every request", async () => {
    const narrowed = await browse(tooling, { egressPolicy: { allowedDomains: ["docs.example.com"] } });
    const refused = await narrowed.call({ action: "navigate", url: `${web.site.url}/` });
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content).toContain("URL not opened");

    const b = await browse(tooling, { egressPolicy: { deniedDomains: ["localhost"] } });
    const mixed = await b.call({ action: "navigate", url: `${web.site.url}/mixed` });
    expect(mixed.isError, mixed.content).toBe(false);
    const read = await b.call({ action: "read" });
    expect(`${mixed.content}\n${read.content}`).toContain(`localhost:${web.site.port}/pixel-from-localhost`);
    expect(web.site.requests.map((r) => r.url)).not.toContain("/pixel-from-localhost");
    await tooling.contexts.close(b.session.id);
  });

  it("keeps sessions apart: one session's cookies are not seen by another", async () => {
    const first = await browse();
    const second = await browse();
    await first.call({ action: "navigate", url: `${web.site.url}/set-cookie?v=first-secret` });
    const own = await first.call({ action: "navigate", url: `${web.site.url}/show-cookie` });
    expect(own.content).toContain("cookie: [token=first-secret]");
    const other = await second.call({ action: "navigate", url: `${web.site.url}/show-cookie` });
    expect(other.content).toContain("cookie: [none]");
    await Promise.all([tooling.contexts.close(first.session.id), tooling.contexts.close(second.session.id)]);
  });

  it("under read confinement keeps only navigate, read, back and screenshot", async () => {
    const b = await browse();
    const agent = agentConfig({ tools: ["browser"] });
    const toolset = assembleToolset(agent, [[b.tool]], { readonly: true });
    const confined = toolset.tools.get("browser")!;
    expect(confined.readOnly).toBe(true);
    expect((confined.inputSchema.properties as { action: { enum: string[] } }).action.enum).toEqual([
      "navigate",
      "read",
      "back",
      "screenshot",
    ]);
    expect(confined.inputSchema.properties).not.toHaveProperty("selector");
    const run = runContext(t, b.session, agent);
    const click = await confined.execute!({ action: "click", text: "About" }, run);
    expect(click).toMatchObject({ isError: true, content: expect.stringContaining("not available here") });
    const nav = await confined.execute!({ action: "navigate", url: `${web.site.url}/` }, run);
    expect(nav.isError, nav.content).toBe(false);
    await tooling.contexts.close(b.session.id);
  });

  it("closes a context after its idle timeout, and its page's connections with it", async () => {
    const quick = createBrowserTooling(withEnv({ BROWSER_IDLE_TIMEOUT_MS: "1000" }));
    try {
      const b = await browse(quick);
      await b.call({ action: "navigate", url: `${web.site.url}/live` });
      expect(quick.contexts.sessions()).toContain(b.session.id);
      await expect.poll(() => web.openStreams(), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => quick.contexts.sessions(), { timeout: 15_000 }).not.toContain(b.session.id);
      await expect.poll(() => web.openStreams(), { timeout: 10_000 }).toBe(0);
    } finally {
      await quick.contexts.stop();
    }
  });

  it("opens at most BROWSER_MAX_CONTEXTS contexts: a further session waits for a slot", async () => {
    const one = createBrowserTooling(withEnv({ BROWSER_MAX_CONTEXTS: "1" }));
    try {
      const first = await browse(one);
      const second = await browse(one);
      await first.call({ action: "navigate", url: `${web.site.url}/` });
      let secondDone = false;
      const waiting = second.call({ action: "navigate", url: `${web.site.url}/about` }).then((r) => {
        secondDone = true;
        return r;
      });
      // The first session keeps working while the second waits.
      const more = await first.call({ action: "click", text: "About" });
      expect(more.content).toContain("We make widgets");
      expect(secondDone).toBe(false);
      await one.contexts.close(first.session.id);
      const result = await waiting;
      expect(result.isError, result.content).toBe(false);
      expect(result.content).toContain("We make widgets");
    } finally {
      await one.contexts.stop();
    }
  });

  it("names what is missing for a hosted provider without configuration", async () => {
    const b = await browse(tooling, { browser: { provider: "provider_b" } });
    const result = await b.call({ action: "navigate", url: `${web.site.url}/` });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('The browser provider "provider_b" is not configured');
  });

  it("names the variable to set when no Chromium is found", async () => {
    const missing = createBrowserTooling(withEnv({ BROWSER_EXECUTABLE_PATH: "/nonexistent/chromium" }));
    try {
      const b = await browse(missing);
      const result = await b.call({ action: "navigate", url: `${web.site.url}/` });
      expect(result).toMatchObject({ isError: true });
      expect(result.content).toContain("/nonexistent/chromium");
      expect(result.content).toContain("could not start");
    } finally {
      await missing.contexts.stop();
    }
  });
});
