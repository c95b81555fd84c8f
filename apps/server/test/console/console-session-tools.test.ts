import { describe, expect, it } from "vitest";
import { hasChromium, openConsole, signIn, unexpectedProblems } from "./console-browser.js";
import { appendLogEntries } from "./console-seed.js";
import { consoleSuite, FAKE_MODEL } from "./console-suite.js";

const s = consoleSuite({ fakeModel: true });

const texts = async (sessionId: string) =>
  (await s.platform.sessions.listEvents(sessionId)).data
    .filter((e) => e.type === "user.message" || e.type === "agent.message")
    .map((e) => (e as { content: { text: string }[] }).content[0]!.text);

describe.skipIf(!hasChromium)("what can be done from a session's page", () => {
  it("forks from an entry: the fork continues on its own and the source stays as it was", async () => {
    const agent = await s.platform.agents.create({ name: "Echo", model: "builtin/echo" });
    const source = await s.platform.sessions.create({
      agent: agent.id,
      title: "Original",
      events: [{ type: "user.message", content: [{ type: "text", text: "first" }] }],
    });
    await s.platform.sessions.waitForIdle(source.id, { afterSeq: 0, timeout: 20_000 });

    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${source.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    await log.getByText("turn ended: end_turn").waitFor({ timeout: 15_000 });
    const idle = (await s.platform.sessions.get(source.id)).lastSeq;
    await log.getByRole("button", { name: "Fork from here" }).last().click();
    const form = log.getByRole("form", { name: `Fork at entry ${idle}` });
    await form.getByLabel("Title").fill("Forked");
    await screenshot("session-fork");
    await form.getByRole("button", { name: "Fork" }).click();
    await page.getByRole("heading", { name: "Forked" }).waitFor({ timeout: 10_000 });
    expect(await page.getByText(`forked from ${source.id} at entry ${idle}`).count()).toBe(1);
    const forkId = page.url().split("/").at(-1)!;
    expect(forkId).not.toBe(source.id);

    await page.getByLabel("Message", { exact: true }).fill("second, only in the fork");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page
      .getByRole("log", { name: "Session log" })
      .getByRole("article", { name: "agent message" })
      .getByText("second, only in the fork")
      .waitFor({ timeout: 20_000 });
    expect(await texts(forkId)).toEqual(["first", "first", "second, only in the fork", "second, only in the fork"]);
    expect(await texts(source.id)).toEqual(["first", "first"]);

    // "Edit and rerun" on the first message: a new session with the edited message.
    await page.goto(`${s.t.url}/console/sessions/${source.id}`);
    const message = page.getByRole("log", { name: "Session log" }).getByRole("article", { name: "user message" });
    await message.getByRole("button", { name: "Edit and rerun" }).click();
    await message.getByLabel(/Message in a new session/).fill("first, edited");
    await message.getByRole("button", { name: "Rerun", exact: true }).click();
    await page.getByRole("heading", { name: "Edited Original" }).waitFor({ timeout: 10_000 });
    await page
      .getByRole("log", { name: "Session log" })
      .getByRole("article", { name: "agent message" })
      .getByText("first, edited")
      .waitFor({ timeout: 20_000 });
    expect(await texts(source.id)).toEqual(["first", "first"]);
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("opens an artifact the agent wrote, and shows what the model is sent", async () => {
    s.fake.enqueue(
      {
        toolCalls: [
          {
            name: "artifact_write",
            arguments: {
              name: "report.md",
              content: "# Quarterly report\n\nSales are **up**.\n\n<script>alert(1)</script>",
            },
          },
        ],
      },
      { text: "The report is written." },
    );
    const agent = await s.platform.agents.create({
      name: "Reporter",
      model: FAKE_MODEL,
      system: "You write reports.",
      tools: ["artifact_write"],
    });
    const session = await s.platform.sessions.create({
      agent: agent.id,
      title: "Report",
      events: [{ type: "user.message", content: [{ type: "text", text: "write the report" }] }],
    });
    await s.platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });

    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${session.id}`);
    await page.getByRole("button", { name: "Artifacts" }).click();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByText("report.md").waitFor({ timeout: 10_000 });
    const open = panel.getByRole("link", { name: "Open" });
    const href = (await open.getAttribute("href"))!;
    expect(await open.getAttribute("rel")).toContain("noopener");
    const served = await page.request.get(href);
    expect(await served.text()).toContain("# Quarterly report");
    await panel.getByRole("button", { name: "Read here" }).click();
    await panel.getByRole("heading", { name: "Quarterly report" }).waitFor({ timeout: 10_000 });
    expect(await panel.locator("strong", { hasText: "up" }).count()).toBe(1);
    expect(await panel.locator("script").count()).toBe(0);
    await screenshot("session-artifacts");

    await page.getByRole("button", { name: "What the model is sent" }).click();
    const context = page.getByRole("complementary", { name: "What the model is sent" });
    await context.getByText("You write reports.").waitFor({ timeout: 10_000 });
    expect(await context.textContent()).toContain("artifact_write");
    expect(await context.textContent()).toMatch(/last call: \d+ prompt tokens/);
    expect(await context.textContent()).toContain("None: the model is sent the whole conversation.");
    await screenshot("session-context");
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("shows thinking, compaction, outcome and unknown entries readably; searches the log; hides usage and status rows", async () => {
    const agent = await s.platform.agents.create({ name: "Thinker", model: "builtin/echo" });
    const session = await s.platform.sessions.create({
      agent: agent.id,
      title: "Entries",
      events: [{ type: "user.message", content: [{ type: "text", text: "needle in the log" }] }],
    });
    await s.platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
    await appendLogEntries(s.t, session.id, [
      { type: "agent.thinking", payload: { text: "Let me think about the needle.\nStep two." } },
      {
        type: "session.compaction",
        payload: {
          summary: "The user asked about a needle.",
          fromSeq: 1,
          toSeq: 3,
          tokensBefore: 12000,
          tokensAfter: 800,
          reason: "threshold",
          usage: { model: "builtin/echo", inputTokens: 100, outputTokens: 20, costUsd: 0 },
        },
      },
      {
        type: "session.outcome_evaluation",
        payload: {
          verdict: "failed",
          scores: [{ type: "contains", score: 0, passed: false, reason: "missing “thread”" }],
          feedback: "Mention the thread.",
          revise: true,
          revision: 0,
          answerSeq: 3,
          usage: { model: null, modelCalls: 0, inputTokens: 0, outputTokens: 0 },
          costUsd: null,
        },
      },
      {
        type: "session.guardrail_decision",
        payload: { stage: "output", action: "redact", rule: "pii.email", detail: "an email address was redacted" },
      },
    ]);

    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${session.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    const thinking = log.getByRole("article", { name: "agent thinking" });
    await thinking.waitFor({ timeout: 15_000 });
    expect(await thinking.textContent()).toContain("Let me think about the needle.");
    expect(await thinking.textContent()).not.toContain("Step two.");
    await thinking.getByRole("button", { name: /Thinking/ }).click();
    await expect.poll(() => thinking.textContent()).toContain("Step two.");
    const compaction = log.getByRole("article", { name: "compaction" });
    expect(await compaction.textContent()).toMatch(/entries 1–3.*12,000 → 800 tokens/);
    expect(await compaction.textContent()).toContain("The user asked about a needle.");
    const outcome = log.getByRole("article", { name: "outcome evaluation" });
    expect(await outcome.textContent()).toMatch(
      /failed.*sent back to revise.*contains: fail.*missing “thread”.*Mention the thread/s,
    );
    const unknown = log.getByRole("article", { name: "session.guardrail_decision entry" });
    expect(await unknown.textContent()).toMatch(
      /Guardrail decision.*stage.*output.*action.*redact.*an email address was redacted/s,
    );
    expect(await log.locator("pre", { hasText: '"type"' }).count()).toBe(0);
    await screenshot("session-entries");

    await page.getByLabel("Search the log").fill("needle");
    await expect.poll(() => page.locator(".log-tools").textContent()).toMatch(/match 1 of [3-9]/);
    await page.getByLabel("Search the log").fill("no such words");
    await expect.poll(() => page.locator(".log-tools").textContent()).toContain("no match");
    await page.getByLabel("Search the log").fill("");

    expect(await log.textContent()).toMatch(
      /model call builtin\/echo: \d+ input · \d+ output tokens · \$0\.00 · \d+ ms/,
    );
    await page.getByLabel("Hide usage").check();
    await page.getByLabel(/Hide turn starts/).check();
    await expect.poll(() => log.textContent()).not.toContain("model call");
    expect(await log.textContent()).not.toContain("turn ended");
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("unarchives and deletes a session", async () => {
    const agent = await s.platform.agents.create({ name: "Echo 3", model: "builtin/echo" });
    const session = await s.platform.sessions.create({ agent: agent.id, title: "Keep or drop" });
    await s.platform.sessions.archive(session.id);
    const { page, problems } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${session.id}`);
    await page.getByRole("button", { name: "Unarchive" }).click();
    await page.getByLabel("Message", { exact: true }).waitFor({ timeout: 10_000 });
    expect((await s.platform.sessions.get(session.id)).archivedAt).toBeNull();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Sessions", exact: true }).waitFor({ timeout: 10_000 });
    await expect(s.platform.sessions.get(session.id)).rejects.toMatchObject({ status: 404 });
    expect(unexpectedProblems(problems).filter((p) => !/status of 404/.test(p))).toEqual([]);
    await page.context().close();
  }, 60_000);
});
