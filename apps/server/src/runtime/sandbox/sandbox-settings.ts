import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { integerSetting } from "../../lib/env.js";

/** Code execution (the `bash` and file tools), from the environment (docs/environments.md). */
export interface SandboxSettings {
  /** bubblewrap (`SANDBOX_BWRAP_PATH`); null when none was found. */
  bwrapPath: string | null;
  /** The unprivileged user and group the sandboxes run as (`SANDBOX_UID`, `SANDBOX_GID`, default 65534: nobody). */
  uid: number;
  gid: number;
  /** Host folder of the workspaces and package layers (`SANDBOX_DIR`); every parent must be traversable by `uid`. */
  root: string;
  /** Sandboxed calls one process runs at once (`SANDBOX_MAX_CONCURRENT`, default 4); more wait, in order. */
  maxConcurrent: number;
  /** Registry and index the package layers install from (`SANDBOX_NPM_REGISTRY`, `SANDBOX_PIP_INDEX_URL`). */
  npmRegistry: string;
  pipIndexUrl: string;
  /** Longest a package layer may take to build (`SANDBOX_PACKAGES_TIMEOUT_MS`, default 5 min). */
  packagesTimeoutMs: number;
}

export function readSandboxSettings(env: Record<string, string | undefined>): SandboxSettings {
  const configured = env.SANDBOX_BWRAP_PATH?.trim();
  return {
    bwrapPath: configured || (["/usr/bin/bwrap", "/usr/local/bin/bwrap"].find((p) => existsSync(p)) ?? null),
    uid: integerSetting(env, "SANDBOX_UID", 65534, 1, 2 ** 31 - 2),
    gid: integerSetting(env, "SANDBOX_GID", 65534, 1, 2 ** 31 - 2),
    root: env.SANDBOX_DIR?.trim() || join(tmpdir(), "agent-platform-sandboxes"),
    maxConcurrent: integerSetting(env, "SANDBOX_MAX_CONCURRENT", 4, 1, 256),
    npmRegistry: env.SANDBOX_NPM_REGISTRY?.trim() || "https://registry.npmjs.org/",
    pipIndexUrl: env.SANDBOX_PIP_INDEX_URL?.trim() || "https://pypi.org/simple",
    packagesTimeoutMs: integerSetting(env, "SANDBOX_PACKAGES_TIMEOUT_MS", 300_000, 10_000, 3_600_000),
  };
}
