import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { integerSetting } from "../../lib/env.js";

/**
 * How Chromium is confined (`BROWSER_CONFINEMENT`): `strict` (default) runs it inside its own bubblewrap boundary with
 * Chromium's own sandbox on, and refuses to browse where either cannot work; `boundary` accepts Chromium's sandbox being
 * off inside the boundary; `none` runs Chromium as the worker's user, unconfined (still with a minimal environment).
 */
export type BrowserConfinement = "strict" | "boundary" | "none";

export interface BrowserBoundarySettings {
  confinement: BrowserConfinement;
  /** bubblewrap (`BROWSER_BWRAP_PATH`, else `SANDBOX_BWRAP_PATH`, else the usual paths). */
  bwrapPath: string | null;
  /** The unprivileged user and group Chromium runs as (`BROWSER_UID`, `BROWSER_GID`, default 65534: nobody). */
  uid: number;
  gid: number;
  /** Host folder of each browser's launch script and proxy socket (`BROWSER_DIR`). */
  root: string;
  /** Memory of one browser, every process and its scratch /tmp included (`BROWSER_MEMORY_MB`, default 1024). */
  memoryBytes: number;
  /** Processes and threads of one browser (`BROWSER_MAX_PROCESSES`, default 512). */
  maxProcesses: number;
}

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
  boundary: BrowserBoundarySettings;
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

function confinementSetting(raw: string | undefined): BrowserConfinement {
  const value = raw?.trim() || "strict";
  if (value === "strict" || value === "boundary" || value === "none") return value;
  throw new Error(`BROWSER_CONFINEMENT must be strict, boundary or none (got ${value})`);
}

export function readBrowserSettings(env: Record<string, string | undefined>): BrowserSettings {
  return {
    executablePath: findChromium(env.BROWSER_EXECUTABLE_PATH),
    maxContexts: integerSetting(env, "BROWSER_MAX_CONTEXTS", 4, 1, 256),
    idleTimeoutMs: integerSetting(env, "BROWSER_IDLE_TIMEOUT_MS", 60_000, 1_000, 3_600_000),
    navigationTimeoutMs: integerSetting(env, "BROWSER_NAVIGATION_TIMEOUT_MS", 30_000, 1_000, 600_000),
    actionTimeoutMs: integerSetting(env, "BROWSER_ACTION_TIMEOUT_MS", 10_000, 100, 600_000),
    boundary: {
      confinement: confinementSetting(env.BROWSER_CONFINEMENT),
      bwrapPath:
        env.BROWSER_BWRAP_PATH?.trim() ||
        env.SANDBOX_BWRAP_PATH?.trim() ||
        (["/usr/bin/bwrap", "/usr/local/bin/bwrap"].find((p) => existsSync(p)) ?? null),
      uid: integerSetting(env, "BROWSER_UID", 65534, 1, 2 ** 31 - 2),
      gid: integerSetting(env, "BROWSER_GID", 65534, 1, 2 ** 31 - 2),
      root: env.BROWSER_DIR?.trim() || join(tmpdir(), "agent-platform-browsers"),
      memoryBytes: integerSetting(env, "BROWSER_MEMORY_MB", 1024, 128, 65_536) * 1024 * 1024,
      maxProcesses: integerSetting(env, "BROWSER_MAX_PROCESSES", 512, 32, 65_536),
    },
  };
}
