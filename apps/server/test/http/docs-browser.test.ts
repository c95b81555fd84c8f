import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

const CHROMIUM = "/usr/bin/chromium";
/** Test artifact (gitignored): what the reference looked like in this run. */
const SCREENSHOT = join(import.meta.dirname, "..", "..", ".artifacts", "docs.png");

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
    headless: true,
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(!existsSync(CHROMIUM))("/docs in a browser", () => {
  it("renders every area's operations with their examples, offline and within the CSP", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    // Offline: anything not served by this server fails the test.
    const foreign: string[] = [];
    await page.route("**/*", (route) => {
      if (route.request().url().startsWith(t.url)) return route.continue();
      foreign.push(route.request().url());
      return route.abort();
    });

    await page.goto(`${t.url}/docs`);
    await page.locator(".opblock-tag").first().waitFor({ timeout: 20_000 });

    const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as { tags: { name: string }[] };
    const shown = await page.locator(".opblock-tag").evaluateAll((els) => els.map((e) => e.getAttribute("data-tag")));
    expect(shown).toEqual(document.tags.map((tag) => tag.name));
    for (const area of ["agents", "sessions", "automations", "experiments", "skills"]) {
      expect(await page.locator(`.opblock-tag-section:has(h3[data-tag="${area}"]) .opblock`).count()).toBeGreaterThan(
        2,
      );
    }

    // Swagger UI escapes the dot of the operation id in the element id; the summary shows the id as text.
    const create = page.locator(".opblock").filter({ hasText: "agents.create" }).first();
    await create.locator(".opblock-summary").click();
    await expect
      .poll(() => create.locator(".opblock-body").textContent(), { timeout: 10_000 })
      .toContain("Support triage");
    const body = (await create.locator(".opblock-body").textContent()) ?? "";
    expect(body).toContain("Idempotency-Key");
    expect(body).toContain("agent.invalid_roster");

    mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
    await create.scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOT });
    expect(foreign).toEqual([]);
    expect(problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([]);
  }, 60_000);

  it("tries two successive writes, filters by operation, fills projectId and keeps the key out of localStorage", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${t.url}/docs`);
    await page.locator(".opblock-tag").first().waitFor({ timeout: 20_000 });

    // The filter matches an operation, not only a tag.
    await page.locator(".operation-filter-input").fill("listEvents");
    await expect.poll(() => page.locator(".opblock").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(".opblock").textContent()).toContain("sessions.listEvents");
    await page.locator(".operation-filter-input").fill("");

    await page.locator(".btn.authorize").first().click();
    await page.locator(".auth-container input").first().fill(t.tenant.key);
    await page.locator(".auth-btn-wrapper .btn.modal-btn.auth.authorize").click();
    await page.locator(".auth-btn-wrapper .btn-done").click();
    expect(
      await page.evaluate(() => JSON.stringify((globalThis as unknown as { localStorage: object }).localStorage)),
    ).not.toContain(t.tenant.key);
    expect(
      await page.evaluate(() => JSON.stringify((globalThis as unknown as { sessionStorage: object }).sessionStorage)),
    ).toContain(t.tenant.key);

    const create = page.locator(".opblock").filter({ hasText: "agents.create" }).first();
    await create.locator(".opblock-summary").click();
    await create.locator(".try-out__btn").click();
    const projectInput = create.locator('tr[data-param-name="projectId"] input');
    await expect.poll(() => projectInput.inputValue(), { timeout: 10_000 }).toBe(t.tenant.projectId);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await create.locator(".btn.execute").click();
      await expect
        .poll(() => create.locator(".live-responses-table .response .response-col_status").first().textContent(), {
          timeout: 10_000,
        })
        .toContain("201");
      const listed = await t.http.get(`/v1/projects/${t.tenant.projectId}/agents`).set(t.tenant.auth);
      expect(listed.body.data.filter((a: { name: string }) => a.name === "Support triage")).toHaveLength(attempt);
      if (attempt === 1) await create.locator(".btn-clear").click();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
