import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** Test artifacts (gitignored): what the console's pages looked like in this run. */
export const SCREENSHOTS = join(import.meta.dirname, "..", "..", ".artifacts", "console");

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    headless: true,
  });
}

export interface ConsolePage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
  /** Requests to any other origin (the console must work offline). */
  foreign: string[];
  screenshot(name: string): Promise<void>;
}

/** A fresh tab (its own sessionStorage) that records errors and refuses requests to other origins. */
export async function openConsole(browser: Browser, baseUrl: string): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await context.route("**/*", (route) => {
    if (route.request().url().startsWith(baseUrl)) return route.continue();
    foreign.push(route.request().url());
    return route.abort();
  });
  return {
    page,
    problems,
    foreign,
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    },
  };
}

export async function signIn(page: Page, baseUrl: string, apiKey: string, path = "/console"): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 15_000 });
}

/** Console errors that are expected: a refused key is answered 401, which the browser logs as a failed resource. */
export function unexpectedProblems(problems: string[]): string[] {
  return problems.filter((p) => !/status of 401/.test(p));
}

/**
 * What functions run in the page (`page.evaluate`) read of the browser's globals: the server's TypeScript has no DOM
 * library, and adding it to the program would hide DOM globals used by mistake in server code.
 */
export interface PageGlobals {
  sessionStorage: { length: number } & Record<string, unknown>;
  localStorage: { length: number };
  requestAnimationFrame(callback: () => void): number;
  PerformanceObserver: new (
    callback: (list: { getEntries(): { duration: number }[] }) => void,
  ) => { observe(options: { type: string; buffered?: boolean }): void };
  __xss?: string;
  __longTasks: number[];
}
