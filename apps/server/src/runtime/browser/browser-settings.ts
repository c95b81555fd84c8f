import { existsSync } from "node:fs";
import { integerSetting } from "../../lib/env.js";

/** Tuning of the `browser` tool, from the environment (docs/tools.md, "browser"). */
export interface BrowserSettings {
  /** Chromium to run (`BROWSER_EXECUTABLE_PATH`); null when none was configured or found. */
  executablePath: string | null;
  /** Browser contexts (one per browsing session) open at once in this process (`BROWSER_MAX_CONTEXTS`, default 4). */
  maxContexts: number;
  /** A context unused this long is closed (`BROWSER_IDLE_TIMEOUT_MS`, default 60 s). */
  idleTimeoutMs: number;
  /** Bounds one navigation (`BROWSER_NAVIGATION_TIMEOUT_MS`, default 30 s). */
  navigationTimeoutMs: number;
  /** Bounds finding the element of a click or a typing (`BROWSER_ACTION_TIMEOUT_MS`, default 10 s). */
  actionTimeoutMs: number;
}

/** Where distributions put Chromium (Debian's `chromium` first) and Chrome. */
export const CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/lib/chromium/chromium",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
  "/opt/google/chrome/chrome",
];

export function findChromium(configured: string | undefined, exists = existsSync): string | null {
  if (configured?.trim()) return configured.trim();
  return CHROMIUM_PATHS.find((path) => exists(path)) ?? null;
}

export function readBrowserSettings(env: Record<string, string | undefined>): BrowserSettings {
  return {
    executablePath: findChromium(env.BROWSER_EXECUTABLE_PATH),
    maxContexts: integerSetting(env, "BROWSER_MAX_CONTEXTS", 4, 1, 256),
    idleTimeoutMs: integerSetting(env, "BROWSER_IDLE_TIMEOUT_MS", 60_000, 1_000, 3_600_000),
    navigationTimeoutMs: integerSetting(env, "BROWSER_NAVIGATION_TIMEOUT_MS", 30_000, 1_000, 600_000),
    actionTimeoutMs: integerSetting(env, "BROWSER_ACTION_TIMEOUT_MS", 10_000, 100, 600_000),
  };
}
