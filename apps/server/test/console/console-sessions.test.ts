import { AgentPlatform } from "@agent-platform/sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  hasChromium,
  launchBrowser,
  openConsole,
  type PageGlobals,
  signIn,
  unexpectedProblems,
} from "./console-browser.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let platform: AgentPlatform;
let browser: Browser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
  platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
  if (hasChromium) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe.skipIf(!hasChromium)("a session in the console", () => {
  it("shows the messages and tool calls of a session created through the SDK; approving a confirmation in the page lets the turn go on live", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "artifact_write", arguments: { name: "notes.txt", content: "remember the milk" } }] },
      { text: "Saved the notes as **notes.txt**." },
    );
    const agent = await platform.agents.create({
      name: "Careful writer",
      model: MODEL,
      tools: ["artifact_write"],
      toolPermissions: { artifact_write: "always_ask" },
    });
    const session = await platform.sessions.create({
      agent: agent.id,
      title: "Write my notes",
      events: [{ type: "user.message", content: [{ type: "text", text: "Please *write* my notes" }] }],
    });
    const waiting = await platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
    expect(waiting.stopReason).toBe("requires_action");

    await platform.sessions.create({ agent: agent.id, title: "Tagged", metadata: { ticket: "42" } });

    const { page, problems, foreign, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key);
    // The list shows the session waiting for a decision; its link opens the session page.
    const row = page.getByRole("row").filter({ hasText: "Write my notes" });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("waiting for you (1)");
    await screenshot("sessions");
    // The API's filters: metadata pairs, status.
    const rows = page.locator("table.list tbody tr");
    await page.getByLabel(/^Metadata/).fill("ticket=42");
    await page.getByLabel(/^Metadata/).press("Enter");
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining("Tagged")]);
    await page.getByLabel(/^Metadata/).fill("");
    await page.getByLabel(/^Metadata/).press("Enter");
    await page.getByLabel("Show").selectOption("running");
    await page.getByRole("heading", { name: "No session matches these filters" }).waitFor();
    await page.getByLabel("Show").selectOption("waiting");
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining("Write my notes")]);
    await page.getByLabel("Show").selectOption("");
    await expect.poll(() => rows.count()).toBe(2);
    await row.getByRole("link", { name: "Write my notes" }).click();

    const log = page.getByRole("log", { name: "Session log" });
    await log.getByRole("article", { name: "user message" }).getByText("write").waitFor({ timeout: 15_000 });
    expect(await log.locator("em").first().textContent()).toBe("write");
    const tool = log.getByRole("article", { name: "Tool artifact_write" });
    await expect.poll(() => tool.textContent()).toContain("needs confirmation");
    expect(await tool.textContent()).toContain("remember the milk");
    await screenshot("session-waiting");

    await tool.getByRole("button", { name: "Approve" }).click();
    // Live: the result, then the agent's reply, arrive through the event stream without a reload.
    await expect
      .poll(() => log.getByRole("article", { name: "agent message" }).textContent(), { timeout: 20_000 })
      .toContain("Saved the notes as notes.txt.");
    expect(await log.locator("strong", { hasText: "notes.txt" }).count()).toBe(1);
    await expect.poll(() => tool.textContent()).toContain("confirmation: allow");
    expect(await tool.locator(".badge.done").count()).toBe(1);
    await expect.poll(() => log.textContent()).toContain("turn ended: end_turn");
    expect(await log.textContent()).toMatch(/model call openai-compatible\/fake-model: \d+ input · \d+ output tokens/);
    await expect.poll(() => page.locator(".page-header").textContent()).toContain("idle · end_turn");
    await screenshot("session");

    const after = await platform.sessions.listEvents(session.id);
    expect(after.data.find((e) => e.type === "user.tool_confirmation")).toMatchObject({ result: "allow" });
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("answers a custom tool, sends a message, renames and archives from the page", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "lookup_order", arguments: { orderId: "42" } }] },
      { text: "Order 42 shipped yesterday." },
      { text: "You are welcome." },
    );
    const agent = await platform.agents.create({
      name: "Shop",
      model: MODEL,
      tools: [
        {
          type: "custom",
          name: "lookup_order",
          description: "Looks an order up",
          inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
        },
      ],
    });
    const session = await platform.sessions.create({ agent: agent.id });
    await platform.sessions.send(session.id, "where is 42?");
    await platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });

    const { page, problems } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, `/console/sessions/${session.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    const form = log.getByRole("form", { name: "Answer lookup_order" });
    const longResult = `shipped yesterday. ${"tracking event; ".repeat(200)}END OF RESULT`;
    await form.getByLabel("Result of custom tool lookup_order").fill(longResult);
    await form.getByRole("button", { name: "Send result" }).click();
    await expect
      .poll(() => log.getByRole("article", { name: "agent message" }).last().textContent(), { timeout: 20_000 })
      .toContain("Order 42 shipped yesterday.");
    // A large result is cut until "Show all" is pressed.
    const tool = log.getByRole("article", { name: "Custom tool lookup_order" });
    expect(await tool.textContent()).toContain("shipped yesterday.");
    expect(await tool.textContent()).not.toContain("END OF RESULT");
    await tool
      .getByRole("button", { name: `Show all (${longResult.length.toLocaleString("en-US")} characters)` })
      .click();
    await expect.poll(() => tool.textContent()).toContain("END OF RESULT");
    // Collapsed, the tool use keeps its header only.
    await tool.getByRole("button", { name: /Custom tool: lookup_order/ }).click();
    await expect.poll(() => tool.textContent()).not.toContain("shipped yesterday.");

    // A message typed in the page starts the next turn.
    await page.getByLabel("Message", { exact: true }).fill("thanks!");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect
      .poll(() => log.getByRole("article", { name: "agent message" }).last().textContent(), { timeout: 20_000 })
      .toContain("You are welcome.");

    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Title").fill("Order 42");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Order 42" }).waitFor();
    expect((await platform.sessions.get(session.id)).title).toBe("Order 42");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Archive" }).click();
    await expect.poll(async () => (await platform.sessions.get(session.id)).archivedAt).not.toBeNull();
    await page
      .getByText(/archived /)
      .first()
      .waitFor();
    expect(await page.getByLabel("Message", { exact: true }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("links a delegation to its child session, and the child back to its coordinator", async () => {
    const researcher = await platform.agents.create({ name: "Researcher", model: "builtin/echo" });
    const coordinator = await platform.agents.create({
      name: "Coordinator",
      model: MODEL,
      multiagent: { type: "coordinator", roster: [{ agentId: researcher.id, role: "researcher", mode: "foreground" }] },
    });
    fake.enqueue(
      { toolCalls: [{ name: "delegate_to_researcher", arguments: { task: "Find the capital of France" } }] },
      { text: "Paris, per the researcher." },
    );
    const session = await platform.sessions.create({
      agent: coordinator.id,
      events: [{ type: "user.message", content: [{ type: "text", text: "capital of France?" }] }],
    });
    await platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
    const child = (await platform.sessions.list({ agent: researcher.id })).data.find(
      (s) => s.parentSessionId === session.id,
    );
    expect(child).toBeDefined();

    const { page, problems } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, `/console/sessions/${session.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    const delegation = log.getByRole("article", { name: "Delegation researcher" });
    await delegation.getByRole("link", { name: `child session ${child!.id}` }).click();
    await page.getByText(`delegated by ${session.id}`).waitFor({ timeout: 10_000 });
    await log.getByRole("article", { name: "user message" }).getByText("Find the capital of France").waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("interrupts a running turn from the page", async () => {
    fake.enqueue({ hang: true });
    const agent = await platform.agents.create({ name: "Slow", model: MODEL });
    const session = await platform.sessions.create({ agent: agent.id, title: "Slow turn" });
    await platform.sessions.send(session.id, "take your time");
    await expect
      .poll(async () => (await platform.sessions.get(session.id)).status, { timeout: 20_000 })
      .toBe("running");

    const { page, problems } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, `/console/sessions/${session.id}`);
    await page.getByRole("button", { name: "Interrupt" }).click();
    const log = page.getByRole("log", { name: "Session log" });
    await expect.poll(() => log.textContent(), { timeout: 20_000 }).toContain("turn ended: interrupted");
    expect(await log.textContent()).toContain("interrupt requested");
    await expect.poll(() => page.getByRole("button", { name: "Interrupt" }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("renders model output as text: HTML, scripts, event handlers and javascript: links never run", async () => {
    const hostile = [
      "Here is **bold** text.",
      "<script>window.__xss = 'script'</script>",
      '<img src="x" onerror="window.__xss = \'img\'">',
      "[click me](javascript:window.__xss='link')",
      "![pic](https://example.com/tracker.png)",
      "<iframe src=\"javascript:window.__xss='iframe'\"></iframe>",
    ].join("\n\n");
    fake.enqueue({ text: hostile });
    const agent = await platform.agents.create({ name: "Hostile", model: MODEL });
    const session = await platform.sessions.create({ agent: agent.id });
    const ack = await platform.sessions.send(session.id, '<img src="y" onerror="window.__xss = \'user\'">');
    await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });

    const { page, problems, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, `/console/sessions/${session.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    const message = log.getByRole("article", { name: "agent message" });
    await message.locator("strong", { hasText: "bold" }).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__xss)).toBeUndefined();
    expect(await log.locator("script, img, iframe").count()).toBe(0);
    // The neutralised link keeps its words, as text: nothing to click, no empty tab.
    expect(await message.getByRole("link", { name: "click me" }).count()).toBe(0);
    const removed = message.locator(".link-removed", { hasText: "click me" });
    expect(await removed.getAttribute("title")).toContain("Link removed");
    const pages = page.context().pages().length;
    await removed.click();
    await page.waitForTimeout(300);
    expect(page.context().pages().length).toBe(pages);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__xss)).toBeUndefined();
    expect(await message.textContent()).toContain("[image: pic]");
    // Raw HTML is shown as the text it is, not dropped.
    expect(await message.textContent()).toContain("<script>window.__xss = 'script'</script>");
    expect(await message.textContent()).toContain('<img src="x" onerror="window.__xss = \'img\'">');
    expect(await log.getByRole("article", { name: "user message" }).textContent()).toContain("onerror");
    await screenshot("session-hostile-output");
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
