import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  hasChromium,
  launchBrowser,
  openConsole,
  type PageGlobals,
  signIn,
  unexpectedProblems,
} from "./console-browser.js";

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp();
  if (hasChromium) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("/console is served by the server", () => {
  it("serves the app with a strict CSP, and index.html for deep links", async () => {
    for (const path of ["/console", "/console/", "/console/sessions/sess_deep_link"]) {
      const response = await fetch(`${t.url}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      const html = await response.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/);
      // No inline script: every <script> has a src.
      expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
    }
    const html = await (await fetch(`${t.url}/console`)).text();
    const script = html.match(/src="(\/console\/assets\/[^"]+\.js)"/)![1]!;
    const asset = await fetch(`${t.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect((await fetch(`${t.url}/console/assets/missing.js`)).status).toBe(404);
  });
});

describe.skipIf(!hasChromium)("signing in to /console", () => {
  it("refuses a bad key with a clear message and stores nothing", async () => {
    const { page, problems, foreign } = await openConsole(browser, t.url);
    await page.goto(`${t.url}/console`);
    await page.getByLabel("API key").fill("ap_not_a_real_key");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 })
      .toContain("This API key was refused");
    expect(
      await page.evaluate(() => {
        const w = globalThis as unknown as PageGlobals;
        return [w.sessionStorage.length, w.localStorage.length];
      }),
    ).toEqual([0, 0]);
    expect(page.url()).not.toContain("ap_");
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it("signs in with an admin key for this tab only, shows admin pages, and signs out", async () => {
    const { page, problems, foreign, screenshot } = await openConsole(browser, t.url);
    await signIn(page, t.url, t.tenant.key);
    await page.getByRole("heading", { name: "Sessions", exact: true }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect.poll(() => nav.getByRole("link").allTextContents()).toContain("Webhooks");
    expect(await nav.getByRole("link").allTextContents()).toContain("Usage & budgets");
    // Kept in this tab's sessionStorage, never in localStorage, a cookie or the URL.
    expect(await page.evaluate(() => Object.values((globalThis as unknown as PageGlobals).sessionStorage))).toEqual([
      t.tenant.key,
    ]);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.length)).toBe(0);
    expect(await page.context().cookies()).toEqual([]);
    expect(page.url()).not.toContain(t.tenant.key);
    await screenshot("sessions-empty");

    // A reload keeps the tab signed in; another tab is not.
    await page.reload();
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 15_000 });
    const other = await page.context().newPage();
    await other.goto(`${t.url}/console/sessions`);
    await other.getByLabel("API key").waitFor();
    await other.close();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.length)).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  }, 60_000);

  it("hides admin pages from a member key", async () => {
    const member = await t.newTenant("member");
    const { page, problems } = await openConsole(browser, t.url);
    await signIn(page, t.url, member.key, "/console/webhooks");
    await page.getByText("No such page in the console.").waitFor();
    const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    expect(links).toEqual([
      "Sessions",
      "Agents",
      "Experiments",
      "Datasets",
      "Automations",
      "Knowledge",
      "Memory",
      "Usage",
    ]);
    expect(unexpectedProblems(problems)).toEqual([]);
    await page.close();
  }, 60_000);
});
