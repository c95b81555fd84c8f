import { describe, expect, it } from "vitest";
import { type FakeRequest, lastUserText } from "../support/fake-openai.js";
import { hasChromium, openConsole, signIn, unexpectedProblems } from "./console-browser.js";
import { consoleSuite, FAKE_MODEL } from "./console-suite.js";

const s = consoleSuite({ fakeModel: true });

const systemOf = (request: FakeRequest): string =>
  // biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
  ((request.body.messages as any[]).find((m) => m.role === "system")?.content as string | undefined) ?? "";

async function finished(id: string) {
  for (let i = 0; i < 300; i++) {
    const experiment = await s.platform.experiments.get(id);
    if (experiment.status === "completed" || experiment.status === "failed") return experiment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`experiment ${id} did not finish`);
}

describe.skipIf(!hasChromium)("judging agents in the console", () => {
  it("lists a one-scorer regression first against a baseline, with both outputs, the baseline in the URL", async () => {
    s.fake.respondWith((request) => {
      const text = lastUserText(request.body);
      return { text: systemOf(request) === "shout" ? text.toUpperCase() : text };
    });
    const dataset = await s.platform.datasets.create({
      name: "words",
      cases: [
        { input: "Three", expected: "THREE" },
        { input: "one", expected: "one" },
        { input: "TWO", expected: "TWO" },
        { input: "four", expected: "FOUR" },
      ],
    });
    const scorers = [{ type: "exact_match" as const }, { type: "regex" as const, pattern: "^[a-z]+$" }];
    const plain = await s.platform.experiments.create({
      datasetId: dataset.id,
      name: "plain",
      task: { type: "model", model: FAKE_MODEL, system: "plain" },
      scorers,
    });
    const shout = await s.platform.experiments.create({
      datasetId: dataset.id,
      name: "shout",
      task: { type: "model", model: FAKE_MODEL, system: "shout" },
      scorers,
    });
    await finished(plain.id);
    await finished(shout.id);

    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/experiments");
    await page.getByRole("link", { name: "shout" }).click();
    await page.locator("#baseline").selectOption({ label: "plain (25.0 %)" });
    expect(page.url()).toContain(`baseline=${plain.id}`);
    const changed = page.getByRole("list", { name: "Changed cases" });
    await changed.waitFor({ timeout: 15_000 });
    const cases = changed.getByRole("listitem").filter({ has: page.locator("header") });
    // "one" regressed on both scorers, "four" on regex only (it improved on exact_match): both regressions, first.
    expect(await cases.evaluateAll((items) => items.map((i) => i.getAttribute("aria-label")))).toEqual([
      "case 2, regression",
      "case 4, regression",
      "case 1, improvement",
    ]);
    const four = changed.getByRole("listitem", { name: "case 4, regression" });
    expect(await four.textContent()).toMatch(/exact_match: fail 0\.00 → pass 1\.00/);
    expect(await four.textContent()).toMatch(/regex: pass 1\.00 → fail 0\.00/);
    expect(await four.locator(".side-by-side").textContent()).toMatch(
      /Baseline output.*four.*This experiment's output.*FOUR/s,
    );
    await four.getByRole("button", { name: "Show what changed, word by word" }).click();
    expect(await four.locator("del").textContent()).toBe("four");
    expect(await four.locator("ins").textContent()).toBe("FOUR");
    const perScorer = page.getByRole("table", { name: "Change per scorer" });
    expect(await perScorer.textContent()).toMatch(/regex pass rate50\.0 %0\.0 %-50\.0 pts20/);
    await page
      .getByRole("heading", { name: "Compare with a baseline" })
      .evaluate((heading) => (heading as unknown as { scrollIntoView(): void }).scrollIntoView());
    await screenshot("experiment-comparison");

    // The case table: the baseline's output beside each case's, search and sort.
    const table = page.getByRole("table", { name: "Case results" });
    expect(await table.locator("thead").textContent()).toContain("Baseline output");
    await page.getByLabel("Sort").selectOption("changed");
    await expect.poll(async () => (await table.locator("tbody tr td:first-child").allTextContents())[0]).toBe("2");
    await page.getByLabel("Search").fill("four");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    await screenshot("experiment-cases-with-baseline");

    // A shared link opens the same comparison.
    await page.goto(page.url());
    await page.getByRole("list", { name: "Changed cases" }).waitFor({ timeout: 15_000 });
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("creates a dataset in the page, adds a case from a session's turn, launches an experiment that runs to its totals", async () => {
    const agent = await s.platform.agents.create({ name: "Parrot", model: "builtin/echo" });
    const session = await s.platform.sessions.create({
      agent: agent.id,
      title: "A turn worth keeping",
      events: [{ type: "user.message", content: [{ type: "text", text: "keep me" }] }],
    });
    await s.platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });

    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/datasets");
    const form = page.getByRole("form", { name: "New dataset" });
    await form.getByLabel("Name").fill("Kept turns");
    await form.getByLabel("Description (optional)").fill("Turns from real sessions");
    await form.getByRole("button", { name: "Create dataset" }).click();
    await page.getByRole("heading", { name: "Kept turns" }).waitFor({ timeout: 10_000 });
    const datasetId = page.url().split("/").at(-1)!;
    const add = page.getByRole("form", { name: "Add a case" });
    await add.getByLabel("Input (the user message)").fill("hello there");
    await add.getByLabel("Expected answer (optional)").fill("hello there");
    await add.getByRole("button", { name: "Add case" }).click();
    const cases = page.getByRole("table", { name: "Dataset cases" });
    await expect.poll(() => cases.locator("tbody tr").count(), { timeout: 10_000 }).toBe(1);
    await screenshot("dataset");

    // From the session: the user's message → "Add to dataset".
    await page.goto(`${s.t.url}/console/sessions/${session.id}`);
    const message = page.getByRole("log", { name: "Session log" }).getByRole("article", { name: "user message" });
    await message.getByRole("button", { name: "Add to dataset" }).click();
    const addTurn = message.getByRole("form", { name: "Add this turn to a dataset" });
    await addTurn.getByLabel("Dataset").selectOption(datasetId);
    await addTurn.getByRole("button", { name: "Add case" }).click();
    await addTurn.getByRole("status").filter({ hasText: "Added as case 2" }).waitFor({ timeout: 10_000 });
    await screenshot("session-add-to-dataset");
    const stored = await s.platform.datasets.listCases(datasetId);
    expect(stored.data.map((c) => [c.input, c.expected, c.metadata.sourceSessionId])).toEqual([
      ["hello there", "hello there", undefined],
      ["keep me", "keep me", session.id],
    ]);

    // The dataset's page launches an experiment of the agent, which runs to its totals.
    await addTurn.getByRole("link", { name: "the dataset" }).click();
    await expect.poll(() => cases.locator("tbody tr").count(), { timeout: 10_000 }).toBe(2);
    expect(await cases.textContent()).toContain("session, entry 1");
    await page.getByRole("link", { name: "New experiment" }).click();
    await page.getByRole("heading", { name: "New experiment" }).waitFor();
    const launch = page.getByRole("form", { name: "New experiment" });
    await launch.getByLabel("Name", { exact: true }).fill("Parrot v1");
    expect(await launch.getByLabel("Dataset").inputValue()).toBe(datasetId);
    await launch.getByLabel("Agent", { exact: true }).selectOption(agent.id);
    await launch.getByLabel(/exact_match/).check();
    await screenshot("experiment-new");
    await launch.getByRole("button", { name: "Run experiment" }).click();
    await page.getByRole("heading", { name: "Parrot v1" }).waitFor({ timeout: 10_000 });
    const totals = page.getByRole("region", { name: "Totals" });
    await expect.poll(() => totals.textContent(), { timeout: 60_000 }).toContain("100.0 %");
    expect(await totals.textContent()).toContain("2 completed · 0 errored");
    const experiment = (await s.platform.experiments.list({ datasetId })).data[0]!;
    expect(experiment).toMatchObject({ name: "Parrot v1", status: "completed", caseCount: 2 });
    expect(experiment.scorers.map((s) => s.type).sort()).toEqual(["exact_match", "not_empty"]);
    await screenshot("experiment");
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 120_000);
});
