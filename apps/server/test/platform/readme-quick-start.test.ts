import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type RunningPlatform, startPlatform } from "../../src/platform-process.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/**
 * Runs the README's curl quick start as it is written (parsed out of README.md, so the test fails when the README
 * drifts) against a started platform, from a folder whose `.data/api-key` is the one the platform generated on its first
 * start, exactly like `pnpm start` at the repository root. Only the README's base URL is replaced by the server's.
 */

const README = fileURLToPath(new URL("../../../../README.md", import.meta.url));
const README_BASE = "http://127.0.0.1:3000";

/** The fenced blocks after the `## Quick start (curl)` heading, up to the next `## ` heading. */
function quickStartBlocks(): { lang: string; body: string }[] {
  const text = readFileSync(README, "utf8");
  const start = text.indexOf("\n## Quick start (curl)\n");
  expect(start, "README.md has a `## Quick start (curl)` section").toBeGreaterThan(-1);
  const next = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, next === -1 ? undefined : next);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
}

let database: TestDatabase;
let platform: RunningPlatform;
let home: string;

beforeAll(async () => {
  database = await createTestDatabase();
  home = mkdtempSync(join(tmpdir(), "ap-readme-"));
  mkdirSync(join(home, ".data"));
  platform = await startPlatform(
    loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: join(home, ".data"),
      SECRETS_KEY: randomBytes(32).toString("base64"),
      PORT: "0",
      HOST: "127.0.0.1",
      ROLE: "all",
      LOG_LEVEL: "silent",
      // the README leaves curl to end at the stream's next heartbeat after the filter is done
      SESSION_STREAM_HEARTBEAT_MS: "200",
    }),
  );
});

afterAll(async () => {
  await platform?.close();
  await database?.drop();
});

describe("README quick start", () => {
  it("runs as written and prints the agent's answer shown in the README", async () => {
    const [script, output] = quickStartBlocks();
    expect(script?.lang).toBe("sh");
    expect(output?.lang).toBe("");
    expect(script!.body.split(README_BASE)).toHaveLength(2);

    const { stdout } = await promisify(execFile)("bash", ["-c", script!.body.replace(README_BASE, platform.url!)], {
      cwd: home,
      timeout: 60_000,
    });

    expect(stdout).toBe(output!.body);
    expect(stdout).toMatch(/^\d+ agent\.message Hello!$/m);
  });
});
