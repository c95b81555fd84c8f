import { beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  hasChromium,
  horizontalOverflow,
  openConsole,
  settled,
  signIn,
  unexpectedProblems,
} from "./console-browser.js";
import { consoleSuite } from "./console-suite.js";

const s = consoleSuite();
let agentId: string;
let firstSession: string;
let experimentId: string;
let datasetId: string;

beforeAll(async () => {
  const agent = await s.platform.agents.create({
    name: "Support",
    model: "builtin/echo",
    system: "You answer support questions.",
    tools: ["artifact_write"],
  });
  agentId = agent.id;
  // 250 sessions, the oldest first; the first one has a turn (its page has a log).
  const first = await s.platform.sessions.create({
    agent: agent.id,
    title: "Session 001",
    events: [{ type: "user.message", content: [{ type: "text", text: "Hello\nsecond line" }] }],
  });
  firstSession = first.id;
  await s.platform.sessions.waitForIdle(first.id, { afterSeq: 0, timeout: 20_000 });
  for (let batch = 0; batch < 249; batch += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, 249 - batch) }, (_, i) =>
        s.platform.sessions.create({ agent: agent.id, title: `Session ${String(batch + i + 2).padStart(3, "0")}` }),
      ),
    );
  }
  const dataset = await s.platform.datasets.create({ name: "greetings", cases: [{ input: "hi", expected: "hi" }] });
  datasetId = dataset.id;
  const experiment = await s.platform.experiments.create({
    datasetId: dataset.id,
    name: "echo",
    task: { type: "model", model: "builtin/echo" },
    scorers: [{ type: "exact_match" }],
  });
  experimentId = experiment.id;
  for (let i = 0; i < 100 && (await s.platform.experiments.get(experiment.id)).status !== "completed"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

/** The main pages, by the name of their screenshot. */
const pages = () => ({
  sessions: "/console/sessions",
  session: `/console/sessions/${firstSession}`,
  agents: "/console/agents",
  agent: `/console/agents/${agentId}`,
  "agent-edit": `/console/agents/${agentId}/edit`,
  "agent-new": "/console/agents/new",
  experiments: "/console/experiments",
  experiment: `/console/experiments/${experimentId}`,
  "experiment-new": "/console/experiments/new",
  datasets: "/console/datasets",
  dataset: `/console/datasets/${datasetId}`,
  automations: "/console/automations",
  "automation-new": "/console/automations/new",
  usage: "/console/usage",
  webhooks: "/console/webhooks",
});

describe.skipIf(!hasChromium)("lists, layout and accessibility", () => {
  it("pages a list of 250 sessions to the last one", async () => {
    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    const footer = page.locator(".list-footer");
    await expect.poll(() => footer.textContent(), { timeout: 15_000 }).toContain("100 sessions shown, more below");
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => footer.textContent()).toContain("200 sessions shown, more below");
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => footer.textContent()).toContain("All 250 sessions shown");
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    // The list is virtualised past 200 rows: the oldest session is in the page once scrolled to.
    const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr:not(.spacer)");
    expect(await rows.count()).toBeLessThan(250);
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 1e7));
    await page.getByRole("link", { name: "Session 001", exact: true }).waitFor({ timeout: 10_000 });
    await screenshot("sessions-paged-to-the-end");
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("says so when a filter matches nothing, and when a metadata filter is malformed", async () => {
    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    await page.getByLabel("Title").fill("no such title anywhere");
    await page.getByLabel("Title").press("Enter");
    await page.getByRole("heading", { name: "No session matches these filters" }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole("heading", { name: "No sessions yet" }).count()).toBe(0);
    expect(page.url()).toContain("search=no+such+title+anywhere");
    await screenshot("sessions-no-match");
    await page.getByRole("button", { name: "Clear filters" }).click();
    // The field shows the cleared URL's value once the page has re-rendered; text typed before that is replaced.
    await expect.poll(() => page.getByLabel("Title").inputValue()).toBe("");
    await page.getByLabel("Title").fill("Session 12");
    await page.getByLabel("Title").press("Enter");
    const titles = async () =>
      (
        await page
          .getByRole("table", { name: "Sessions" })
          .getByRole("link", { name: /^Session/ })
          .allTextContents()
      ).sort();
    await expect.poll(titles).toEqual(Array.from({ length: 10 }, (_, i) => `Session 12${i}`));

    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByLabel(/^Metadata/).fill("ticket");
    await page.getByLabel(/^Metadata/).press("Enter");
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContain("Write each pair as key=value: “ticket” has no key and “=”.");
    expect(await page.getByRole("table", { name: "Sessions" }).count()).toBe(0);
    await screenshot("sessions-bad-metadata-filter");
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("names each page in the tab's title and moves the focus to the page's heading on navigation", async () => {
    const { page } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    await page.getByRole("heading", { name: "Sessions", exact: true }).waitFor();
    expect(await page.title()).toBe("Sessions · Agent Platform");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
    await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
    expect(await page.title()).toBe("Agents · Agent Platform");
    const focused = () =>
      page.evaluate(() => {
        const active = (
          globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string } } }
        ).document.activeElement;
        return `${active.tagName} ${active.textContent}`;
      });
    await expect.poll(focused).toBe("H1 Agents");
    await page.getByRole("link", { name: "Support" }).click();
    await expect.poll(focused).toBe("H1 Support");
    expect(await page.title()).toBe("Support · Agent Platform");
    await page.context().close();
  }, 60_000);

  it("fits a 390-pixel-wide phone: no page scrolls sideways", async () => {
    const { page, problems, screenshot } = await openConsole(s.browser, s.t.url, { width: 390, height: 844 });
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    for (const [name, path] of Object.entries(pages())) {
      await page.goto(`${s.t.url}${path}`);
      await page.locator("main h1").first().waitFor({ timeout: 15_000 });
      await settled(page);
      await screenshot(`phone-${name}`);
      expect(await horizontalOverflow(page), name).toBe(0);
    }
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("finds no serious accessibility issue on the main pages (axe-core), light and dark", async () => {
    const { page, screenshot } = await openConsole(s.browser, s.t.url);
    await page.goto(`${s.t.url}/console`);
    await page.getByLabel("API key").waitFor();
    expect(await axeViolations(page), "sign-in").toEqual([]);
    await signIn(page, s.t.url, s.t.tenant.key, "/console/sessions");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, path] of Object.entries(pages())) {
        await page.goto(`${s.t.url}${path}`);
        await page.locator("main h1").first().waitFor({ timeout: 15_000 });
        await settled(page);
        expect(await axeViolations(page), `${name} (${scheme})`).toEqual([]);
        await screenshot(`${scheme === "dark" ? "dark" : "page"}-${name}`);
      }
    }
    await page.context().close();
  }, 180_000);
});
