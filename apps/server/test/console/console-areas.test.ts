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
  it("creates an agent with the contract's field errors next to the fields, edits it, diffs two versions and restores one", async () => {
    const { page, problems, foreign, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key, "/console/agents");
    await page.getByRole("heading", { name: "No agents yet" }).waitFor();
    await screenshot("agents-empty");
    await page.getByRole("link", { name: "New agent" }).first().click();

    await page.getByLabel("Name").fill("Support");
    await page.getByLabel("Model").fill("no provider here");
    await page.getByLabel("Tools (JSON)").fill("[not json");
    await page.getByRole("button", { name: "Create agent" }).click();
    // A JSON syntax error is caught before sending; the field is marked.
    await expect.poll(() => page.locator("#field-tools-errors").textContent()).toContain("not valid JSON");
    await page.getByLabel("Tools (JSON)").fill('["artifact_write", 42]');
    await page.getByRole("button", { name: "Create agent" }).click();
    // The server's request.invalid issues appear next to their fields: the messages the API gives for this body.
    const refused = await t.http
      .post(`${t.tenant.base}/agents`)
      .set(t.tenant.auth)
      .send({ name: "Support", model: "no provider here", tools: ["artifact_write", 42] });
    const issues = refused.body.error.details.issues as { path: string; message: string }[];
    const issueAt = (path: string) => issues.find((issue) => issue.path.startsWith(path))!.message;
    await expect
      .poll(() => page.locator("#field-model-errors").textContent(), { timeout: 10_000 })
      .toContain(issueAt("body.model"));
    expect(await page.locator("#field-tools-errors").textContent()).toContain(issueAt("body.tools"));
    expect(await page.getByLabel("Model").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#field-name-errors").count()).toBe(0);
    await screenshot("agent-form-errors");

    await page.getByLabel("Model").fill("builtin/echo");
    await page.getByLabel("Tools (JSON)").fill('["artifact_write"]');
    await page.getByLabel("System prompt").fill("You answer support questions.\nBe kind.");
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByRole("heading", { name: "Support", exact: true }).waitFor({ timeout: 10_000 });
    const agentId = page.url().split("/").at(-1)!;
    expect((await platform.agents.get(agentId)).tools).toEqual(["artifact_write"]);

    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("System prompt").fill("You answer support questions.\nBe brief.");
    await page.getByRole("button", { name: "Save (publishes a new version)" }).click();
    await page.getByRole("heading", { name: "Support", exact: true }).waitFor();
    const diff = page.getByRole("region", { name: "Changes from version 1 to version 2" });
    await diff.waitFor({ timeout: 10_000 });
    const lines = await diff.locator("div").allTextContents();
    expect(lines.filter((l) => l.startsWith("- "))).toEqual([
      '-   "system": "You answer support questions.\\nBe kind.",',
    ]);
    expect(lines.filter((l) => l.startsWith("+ "))).toEqual([
      '+   "system": "You answer support questions.\\nBe brief.",',
    ]);
    await screenshot("agent-diff");

    await page.getByRole("button", { name: "Restore version 1" }).click();
    await expect.poll(async () => (await platform.agents.get(agentId)).version).toBe(3);
    expect((await platform.agents.get(agentId)).system).toBe("You answer support questions.\nBe kind.");
    await page.getByRole("row", { name: /^3/ }).waitFor();

    // A session started from the agent's page opens, and the agent's reply arrives live.
    await page.getByLabel("Start a session with a first message").fill("hello from the console");
    await page.getByRole("button", { name: "Start session" }).click();
    await page
      .getByRole("log", { name: "Session log" })
      .getByRole("article", { name: "agent message" })
      .getByText("hello from the console")
      .waitFor({ timeout: 20_000 });
    await page.goBack();

    await page.getByRole("button", { name: "Duplicate" }).click();
    await expect.poll(() => page.url()).not.toContain(agentId);
    expect((await platform.agents.list()).data).toHaveLength(2);
    expect(unexpectedProblems(problems).filter((p) => !/status of 400/.test(p))).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("shows an experiment's totals as charts, its failing cases, and the regressions against a baseline", async () => {
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
    const changed = page.getByRole("list", { name: "Changed cases" });
    await expect.poll(() => changed.textContent(), { timeout: 10_000 }).toContain("regression");
    expect(await changed.textContent()).toContain("Rome");
    expect(await page.getByRole("region", { name: "Compare with a baseline" }).textContent()).toContain("-33.3 pts");
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
      await platform.webhooks.create({ url, events: ["*"], description: "Console test receiver" });
      await platform.budgets.create({ scope: "workspace", meter: "sessions", limit: 1000, action: "notify" });

      const { page, problems, screenshot } = await openConsole(browser, t.url);
      await signIn(page, t.url, t.tenant.key, "/console/webhooks");
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
      expect(unexpectedProblems(problems)).toEqual([]);
      await page.context().close();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 90_000);
});
