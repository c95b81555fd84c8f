import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AgentPlatform } from "@agent-platform/sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { hasChromium, launchBrowser, openConsole, signIn, unexpectedProblems } from "./console-browser.js";

let t: TestApp;
let platform: AgentPlatform;
let browser: Browser;

beforeAll(async () => {
  t = await startTestApp({ role: "all" });
  platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
  if (hasChromium) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function waitForExperiment(id: string) {
  for (let i = 0; i < 200; i++) {
    const experiment = await platform.experiments.get(id);
    if (experiment.status === "completed" || experiment.status === "failed") return experiment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`experiment ${id} did not finish`);
}

describe.skipIf(!hasChromium)("agents, experiments and automations in the console", () => {
  it("shows an experiment's totals as charts, its failing cases, and the comparison with a baseline", async () => {
    const dataset = await platform.datasets.create({
      name: "capitals",
      cases: [
        { input: "Paris", expected: "Paris" },
        { input: "Rome", expected: "Roma" },
        { input: "Lisbon", expected: "Lisbon" },
      ],
    });
    const task = { type: "model" as const, model: "builtin/echo" };
    const baseline = await platform.experiments.create({
      datasetId: dataset.id,
      name: "lenient",
      task,
      scorers: [{ type: "not_empty" }],
    });
    const experiment = await platform.experiments.create({
      datasetId: dataset.id,
      name: "strict",
      task,
      scorers: [{ type: "exact_match" }, { type: "not_empty" }],
    });
    await waitForExperiment(baseline.id);
    const done = await waitForExperiment(experiment.id);
    expect(done.totals?.passRate).toBeCloseTo(2 / 3);

    const { page, problems, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, "/console/experiments");
    await page.getByRole("link", { name: "strict" }).click();
    const totals = page.getByRole("region", { name: "Totals" });
    await expect.poll(() => totals.textContent(), { timeout: 10_000 }).toContain("66.7 %");
    expect(await page.getByRole("img", { name: "Pass rate per scorer" }).textContent()).toMatch(
      /exact_match.*66\.7 %.*not_empty.*100\.0 %/,
    );
    expect(await totals.textContent()).toContain("Latency p50 / p95");
    const table = page.getByRole("table", { name: "Case results" });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
    await page.getByLabel(/Failures only/).check();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    expect(await table.locator("tbody tr").textContent()).toContain("Roma");
    await screenshot("experiment");

    await page.locator("#baseline").selectOption({ label: "lenient (100.0 %)" });
    // The overall pass rates are each experiment's own; per scorer, only not_empty is shared, and it did not change.
    const compare = page.getByRole("region", { name: "Compare with a baseline" });
    await expect.poll(() => compare.textContent(), { timeout: 10_000 }).toContain("-33.3 pts");
    expect(await compare.textContent()).toContain("No case changed between pass and fail on any scorer.");
    expect(await page.getByRole("table", { name: "Change per scorer" }).textContent()).toMatch(
      /not_empty pass rate100\.0 %100\.0 %\+?0\.0 pts00/,
    );
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("runs an automation now, lists the run with its session, and disables it; shows the next firing of a schedule", async () => {
    const agent = await platform.agents.create({ name: "Digest", model: "builtin/echo" });
    const manual = await platform.automations.create({
      name: "On demand",
      agentId: agent.id,
      prompt: "Summarise the day",
      trigger: { type: "manual" },
    });
    await platform.automations.create({
      name: "Weekday digest",
      agentId: agent.id,
      prompt: "Good morning",
      trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "Asia/Tokyo" },
    });

    const { page, problems, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, "/console/automations");
    const scheduled = page.locator("tr", { hasText: "Weekday digest" });
    await expect.poll(() => scheduled.textContent(), { timeout: 10_000 }).toMatch(/GMT\+9|JST/);
    expect(await scheduled.textContent()).toContain("your time");
    await screenshot("automations");

    await page.getByRole("link", { name: "On demand" }).click();
    await page.getByText("No run yet").waitFor();
    await page.getByRole("button", { name: "Run now" }).click();
    const runs = page.getByRole("list", { name: "Runs, newest first" });
    await runs.getByRole("link", { name: "session" }).waitFor({ timeout: 20_000 });
    expect((await platform.automations.listRuns(manual.id)).data).toHaveLength(1);
    await screenshot("automation");

    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Enable" }).waitFor();
    expect((await platform.automations.get(manual.id)).enabled).toBe(false);

    await runs.getByRole("link", { name: "session" }).click();
    await page
      .getByRole("log", { name: "Session log" })
      .getByRole("article", { name: "user message" })
      .getByText("Summarise the day")
      .waitFor({ timeout: 15_000 });
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("creates an automation in the page from a schedule in words, edits it and deletes it", async () => {
    await platform.agents.create({ name: "Digest writer", model: "builtin/echo" });
    const { page, problems, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, "/console/automations");
    await page.getByRole("link", { name: "New automation" }).first().click();
    const form = page.getByRole("form", { name: "New automation" });
    await form.getByLabel("Name").fill("Morning digest");
    await form.getByLabel("Agent", { exact: true }).selectOption({ label: "Digest writer" });
    await form.getByLabel("Prompt").fill("Summarise yesterday");
    await form.getByLabel("In words").fill("every weekday at 9am");
    await form.getByLabel("Time zone").fill("Europe/Lisbon");
    await form.getByRole("button", { name: "Make the cron" }).click();
    await expect.poll(() => form.getByLabel("Cron").inputValue(), { timeout: 10_000 }).toBe("0 9 * * 1-5");
    await screenshot("automation-new");
    await form.getByRole("button", { name: "Create automation" }).click();
    await page.getByRole("heading", { name: "Morning digest", exact: true }).waitFor({ timeout: 10_000 });
    const id = page.url().split("/").at(-1)!;
    expect(await platform.automations.get(id)).toMatchObject({
      prompt: "Summarise yesterday",
      trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "Europe/Lisbon" },
      enabled: true,
    });

    await page.getByRole("link", { name: "Edit" }).click();
    const edit = page.getByRole("form", { name: "Edit Morning digest" });
    await edit.getByLabel("Prompt").fill("Summarise yesterday, briefly");
    await edit.getByLabel(/Only when run by hand/).check();
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Morning digest", exact: true }).waitFor({ timeout: 10_000 });
    expect(await platform.automations.get(id)).toMatchObject({
      prompt: "Summarise yesterday, briefly",
      trigger: { type: "manual" },
    });

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Automations", exact: true }).waitFor({ timeout: 10_000 });
    await expect(platform.automations.get(id)).rejects.toMatchObject({ status: 404 });
    expect(unexpectedProblems(problems).filter((p) => !/status of 404/.test(p))).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("sends a webhook test event, shows its delivery with attempts, redelivers it; shows budgets with their usage", async () => {
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      received.push(String(req.headers["webhook-id"]));
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      await platform.budgets.create({ scope: "workspace", meter: "sessions", limit: 1000, action: "notify" });

      const { page, problems, screenshot } = await openConsole(browser, t.url);
      await signIn(page, t.url, t.tenant.key, "/console/webhooks");
      // Added in the page, for two event types; the secret is shown once.
      const form = page.getByRole("form", { name: "New webhook endpoint" });
      await form.getByLabel("URL").fill(url);
      await form.getByLabel("Description (optional)").fill("Console test receiver");
      await form.getByLabel(/All events/).uncheck();
      await form.getByRole("checkbox", { name: /webhook\.test/ }).check();
      await form.getByRole("checkbox", { name: /session\.idle/ }).check();
      await form.getByRole("button", { name: "Add endpoint" }).click();
      await expect.poll(() => page.getByRole("status").textContent(), { timeout: 10_000 }).toMatch(/whsec_/);
      expect((await platform.webhooks.list()).data.map((w) => [w.url, w.events])).toEqual([
        [url, ["webhook.test", "session.idle"]],
      ]);
      await screenshot("webhooks");
      await page.getByRole("link", { name: url }).click();
      await page.getByText("No delivery yet").waitFor();
      await page.getByRole("button", { name: "Send test event" }).click();
      const deliveries = page.getByRole("table", { name: "Deliveries" });
      await expect
        .poll(() => deliveries.locator("tbody tr").first().textContent(), { timeout: 20_000 })
        .toMatch(/webhook\.test.*succeeded.*1.*HTTP 204/);
      await deliveries
        .getByRole("button", { name: /^Redeliver webhook\.test/ })
        .first()
        .click();
      await expect.poll(() => deliveries.locator("tbody tr").count(), { timeout: 20_000 }).toBe(2);
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
      // A redelivery carries the same event id.
      expect(new Set(received).size).toBe(1);
      await expect.poll(() => deliveries.locator(".badge.done").count(), { timeout: 20_000 }).toBe(2);
      await screenshot("webhook");

      await page.getByRole("link", { name: "Usage & budgets" }).click();
      const budgets = page.getByRole("table", { name: "Budgets" });
      await expect.poll(() => budgets.textContent(), { timeout: 10_000 }).toMatch(/workspace.*sessions.*of 1,000/);
      await screenshot("usage");
      // A budget made in the page, in dollars, and deleted.
      const budgetForm = page.getByRole("form", { name: "New budget" });
      await budgetForm.getByLabel(/^Limit/).fill("25.5");
      await budgetForm.getByLabel("Past it").selectOption("block");
      await budgetForm.getByRole("button", { name: "Add budget" }).click();
      await expect.poll(() => budgets.textContent(), { timeout: 10_000 }).toMatch(/cost_usd.*\$0\.00 of \$25\.50/);
      expect((await platform.budgets.list()).data.map((b) => [b.meter, b.limit, b.action])).toContainEqual([
        "cost_usd",
        25.5,
        "block",
      ]);
      page.once("dialog", (dialog) => void dialog.accept());
      await budgets.getByRole("button", { name: /Delete the cost_usd budget/ }).click();
      await expect.poll(async () => (await platform.budgets.list()).data.length).toBe(1);
      expect(unexpectedProblems(problems)).toEqual([]);
      await page.context().close();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 90_000);
});
