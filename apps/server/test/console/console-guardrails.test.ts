import type { Guardrail } from "@agent-platform/sdk";
import { describe, expect, it } from "vitest";
import {
  axeViolations,
  hasChromium,
  horizontalOverflow,
  openConsole,
  settled,
  signIn,
  unexpectedProblems,
} from "./console-browser.js";
import { consoleSuite, FAKE_MODEL } from "./console-suite.js";

const s = consoleSuite({ fakeModel: true });

const CARD = "4111 1111 1111 1111";
const AWS_KEY = "AKIAIOSFODNN7EXAMPLE";
const redactCards: Guardrail = { stage: "input", check: { type: "pii", kinds: ["card_number"] }, action: "redact" };
const blockSecretsOut: Guardrail = { stage: "output", check: { type: "secrets" }, action: "block" };

describe.skipIf(!hasChromium)("guardrails in the console", () => {
  it("shows a redaction and a block as decisions on the session page, and marks the blocked turn", async () => {
    // The echo model answers with the message as it was sent to it: the redacted text, then a key the output blocks.
    const agent = await s.platform.agents.create({
      name: "Guarded echo",
      model: "builtin/echo",
      guardrails: [redactCards, blockSecretsOut],
    });
    const session = await s.platform.sessions.create({
      agent: agent.id,
      title: "Guarded",
      events: [{ type: "user.message", content: [{ type: "text", text: `Refund ${CARD} please` }] }],
    });
    await s.platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
    const ack = await s.platform.sessions.send(session.id, `my key is ${AWS_KEY}`);
    const idle = await s.platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(idle.stopReason).toBe("guardrail_blocked");
    const other = await s.platform.sessions.create({ agent: agent.id, title: "Not blocked" });

    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${session.id}`);
    const log = page.getByRole("log", { name: "Session log" });
    await log.getByRole("note", { name: "turn blocked by a guardrail" }).waitFor({ timeout: 15_000 });

    // The redacted message says so where it is read, with the redaction marked; the card number is nowhere.
    const message = log.getByRole("article", { name: "user message" }).first();
    expect(await message.locator("mark.redaction").textContent()).toBe("[REDACTED:card_number]");
    expect(await message.textContent()).toContain("guardrail input.pii: redacted (card number)");
    const redaction = log.getByRole("article", { name: "guardrail input.pii redacted" });
    expect(await redaction.textContent()).toContain("stored with 1 finding redacted");
    expect(await redaction.getByRole("list", { name: "Findings" }).textContent()).toBe("card number characters 7–26");
    // The echo's reply is the redacted text: the model never saw the number.
    expect(await log.getByRole("article", { name: "agent message" }).first().textContent()).toContain(
      "Refund [REDACTED:card_number] please",
    );

    // The blocked reply: a decision that says it was not written, no agent message for that turn, the turn marked.
    const block = log.getByRole("article", { name: "guardrail output.secrets blocked" });
    expect(await block.textContent()).toContain("The reply was not written");
    expect(await block.getByRole("list", { name: "Findings" }).textContent()).toContain("api key");
    expect(await log.getByRole("article", { name: "agent message" }).count()).toBe(1);
    expect(await page.locator(".page-header").getByText("idle · blocked by a guardrail").count()).toBe(1);
    expect(await page.locator("body").textContent()).not.toContain(CARD);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot("session-guardrails");
    expect(await axeViolations(page)).toEqual([]);

    // The sessions list finds the blocked session with its own filter.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sessions" }).click();
    await page.getByLabel("Show").selectOption({ label: "Blocked by a guardrail" });
    const titles = () =>
      page.getByRole("table", { name: "Sessions" }).locator("td[data-label=Title] a").allTextContents();
    await expect.poll(titles, { timeout: 10_000 }).toEqual(["Guarded"]);
    expect(page.url()).toContain("show=blocked");
    expect(await page.getByText("idle · blocked by a guardrail").count()).toBe(1);
    expect(other.id).not.toBe(session.id);
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("takes back a live reply an output guardrail blocks: its text does not stay on screen", async () => {
    const reply = `Sure: the production key is ${AWS_KEY}, keep it safe and never share it with anyone at all.`;
    s.fake.enqueue({ text: reply, chunkDelayMs: 120 });
    const agent = await s.platform.agents.create({ name: "Leaky", model: FAKE_MODEL, guardrails: [blockSecretsOut] });
    const session = await s.platform.sessions.create({ agent: agent.id, title: "Withdrawn" });

    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${session.id}`);
    await page
      .getByRole("status")
      .filter({ hasText: /^live$/ })
      .waitFor({ timeout: 15_000 });
    await page.getByLabel("Message", { exact: true }).fill("what is the key?");
    await page.getByRole("button", { name: "Send", exact: true }).click();

    const log = page.getByRole("log", { name: "Session log" });
    const live = log.getByRole("article", { name: "reply being written" });
    const block = log.getByRole("article", { name: "guardrail output.secrets blocked" });
    const seen: string[] = [];
    let provisional = false;
    const deadline = Date.now() + 30_000;
    while ((await block.count()) === 0 && Date.now() < deadline) {
      // Reads that do not wait: the live article may be withdrawn between two reads.
      const text = (await live.locator(".live-text").allTextContents())[0] ?? "";
      if (text && !provisional) provisional = (await live.allTextContents()).some((t) => t.includes("provisional"));
      if (text && text !== seen.at(-1)) seen.push(text);
      if (seen.length === 2) await screenshot("session-live-before-withdrawal");
      await page.waitForTimeout(40);
    }
    await block.waitFor({ timeout: 20_000 });
    // The reply was on screen as it was written, marked provisional (the agent has an output guardrail)…
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(provisional).toBe(true);
    expect(reply.startsWith(seen[0]!.trim())).toBe(true);
    // …and once blocked, nothing of it stays: no live row, no agent message, the key nowhere in the log.
    await expect.poll(() => live.count()).toBe(0);
    expect(await log.getByRole("article", { name: "agent message" }).count()).toBe(0);
    expect(await log.textContent()).not.toContain("production key");
    await log.getByRole("note", { name: "turn blocked by a guardrail" }).waitFor();
    await screenshot("session-live-withdrawn");
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("adds a guardrail in the agent editor without JSON, with a field error under an invalid pattern", async () => {
    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/agents/new");
    await page.getByLabel("Name").fill("Careful");
    const model = page.getByLabel("Model", { exact: true });
    await expect.poll(() => model.locator("option").allTextContents()).toContain("builtin/echo");
    await model.selectOption("builtin/echo");
    await page.getByRole("button", { name: "Add guardrail" }).click();
    await page.getByLabel("Guardrail 1 stage").selectOption("input");
    await page.getByLabel("Guardrail 1 check").selectOption("pii");
    await page.getByLabel("Guardrail 1 action").selectOption("redact");
    await page.getByRole("group", { name: "Guardrail 1 kinds" }).getByLabel("card number").check();
    await page.getByRole("button", { name: "Add pattern" }).click();
    await page.getByLabel("Guardrail 1 pattern 1 name").fill("order_id");
    // A lookahead: JavaScript takes it, RE2 (which the server runs patterns on) does not.
    await page.getByLabel("Guardrail 1 pattern 1", { exact: true }).fill("ORD-(?=\\d{6})");
    await page.getByRole("button", { name: "Add guardrail" }).click();
    await page.getByLabel("Guardrail 2 stage").selectOption("output");
    await page.getByLabel("Guardrail 2 check").selectOption("length");
    // A check that finds no spans cannot redact: that action is offered disabled.
    const redactOption = page.getByLabel("Guardrail 2 action").locator("option[value=redact]");
    expect(await redactOption.isDisabled()).toBe(true);
    await page.getByLabel("Guardrail 2 action").selectOption("block");
    await page.getByRole("button", { name: "Create agent" }).click();
    // A required setting is asked for before anything is sent.
    await page.getByLabel("Guardrail 2 most characters").waitFor();
    await expect.poll(() => page.getByLabel("Guardrail 2 most characters").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Guardrail 2 most characters").fill("4000");
    await page.getByRole("button", { name: "Create agent" }).click();

    // The API refuses the pattern (400 request.invalid at its path): the message is under the pattern's field.
    const pattern = page.getByLabel("Guardrail 1 pattern 1", { exact: true });
    await expect.poll(() => pattern.getAttribute("aria-invalid"), { timeout: 10_000 }).toBe("true");
    const describedBy = (await pattern.getAttribute("aria-describedby"))!;
    const error = await page.locator(`#${describedBy}`).textContent();
    expect(error).toMatch(/lookahead|invalid|missing|error/i);
    expect(await page.locator("#field-name-errors").count()).toBe(0);
    await page
      .getByRole("group", { name: "Guardrails" })
      .evaluate((group) => (group as unknown as { scrollIntoView(): void }).scrollIntoView());
    await screenshot("agent-form-guardrail-error");
    expect(await horizontalOverflow(page)).toBe(0);

    await pattern.fill("\\bORD-\\d{6}\\b");
    await page.getByLabel("Keep the message as sent in the log").check();
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByRole("heading", { name: "Careful", exact: true }).waitFor({ timeout: 10_000 });
    const agentId = page.url().split("/").at(-1)!;
    expect((await s.platform.agents.get(agentId)).guardrails).toEqual([
      {
        stage: "input",
        check: { type: "pii", kinds: ["card_number"], patterns: [{ name: "order_id", pattern: "\\bORD-\\d{6}\\b" }] },
        action: "redact",
        keepOriginal: true,
      },
      { stage: "output", check: { type: "length", maxChars: 4000 }, action: "block" },
    ]);
    // The agent's page lists them in the order they run.
    const table = page.getByRole("table", { name: "Guardrails" });
    expect(await table.getByRole("row").allTextContents()).toEqual([
      "NameStageCheckAction",
      expect.stringContaining("input.pii"),
      expect.stringContaining("output.length"),
    ]);
    await table.evaluate((t) => (t as unknown as { scrollIntoView(): void }).scrollIntoView());
    await screenshot("agent-guardrails");
    expect(await axeViolations(page)).toEqual([]);

    // An edit that leaves the guardrails alone does not send them; removing one publishes a version without it.
    await page.getByRole("link", { name: "Edit" }).click();
    expect(await page.getByLabel("Guardrail 1 pattern 1", { exact: true }).inputValue()).toBe("\\bORD-\\d{6}\\b");
    await page.getByRole("button", { name: "Remove guardrail 2" }).click();
    await settled(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Save (publishes a new version)" }).click();
    await page.getByRole("heading", { name: "Careful", exact: true }).waitFor({ timeout: 10_000 });
    const saved = await s.platform.agents.get(agentId);
    expect(saved.version).toBe(2);
    expect(saved.guardrails?.map((g) => g.check.type)).toEqual(["pii"]);

    // An edit of something else leaves the guardrails exactly as they were (not re-sent in another order).
    const guardrails: Guardrail[] = [
      {
        stage: "input",
        check: {
          type: "pii",
          kinds: ["card_number", "email"],
          patterns: [{ name: "ticket", pattern: "T-\\d+", flags: "si" }],
        },
        action: "flag",
      },
    ];
    const other = await s.platform.agents.create({ name: "Untouched", model: "builtin/echo", guardrails });
    await page.goto(`${s.t.url}/console/agents/${other.id}/edit`);
    await page.getByLabel("Description").fill("now with a description");
    await page.getByRole("button", { name: "Save (publishes a new version)" }).click();
    await page.getByRole("heading", { name: "Untouched", exact: true }).waitFor({ timeout: 10_000 });
    const edited = await s.platform.agents.get(other.id);
    expect(edited.description).toBe("now with a description");
    expect(edited.guardrails).toEqual(guardrails);
    expect(unexpectedProblems(problems).filter((p) => !/status of 400/.test(p))).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);
});
