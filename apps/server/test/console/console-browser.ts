import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** axe-core (npm), injected into pages to check their accessibility. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
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
export async function openConsole(
  browser: Browser,
  baseUrl: string,
  viewport: { width: number; height: number } = { width: 1280, height: 900 },
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport });
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

/** The serious and critical accessibility violations axe-core finds in the page as it is (rule id, impact, targets). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the console's CSP (no inline script) does not apply to it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: AxeGlobal }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 5).join(", ")}`);
}

interface AxeGlobal {
  run(
    context: unknown,
    options: { resultTypes: string[] },
  ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
}

/** How many pixels the page is wider than its viewport (0: no horizontal scroll). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return Math.max(0, root.scrollWidth - root.clientWidth);
  });
}

/** Waits until the page shows no "Loading…" (its queries answered), then a moment for the layout to settle. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
        ".loading",
      ),
    undefined,
    { timeout: 15_000 },
  );
  await page.waitForTimeout(200);
}
