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
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";

/**
 * Runs the README's curl quick start as it is written (parsed out of README.md, so the test fails when the README
 * drifts) with bash against a started platform, from a folder whose `.data/api-key` is the one the platform generated
 * on its first start, exactly like `pnpm start` at the repository root. Only the README's base URL is replaced by the
 * server's. It runs twice: as written (`builtin/echo`), and with `AGENT_MODEL` naming an `openai-compatible` model
 * that a fake Chat Completions server on loopback answers, as the README's "A real model" says.
 */

const README = fileURLToPath(new URL("../../../../README.md", import.meta.url));
const README_BASE = "http://127.0.0.1:3000";
const MODEL_REPLY = "Hi there. What can I do for you?";

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
let model: FakeOpenAI;
let home: string;

beforeAll(async () => {
  database = await createTestDatabase();
  model = await startFakeOpenAI();
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
      // the model provider the README's "A real model" starts the server with
      OPENAI_COMPATIBLE_BASE_URL: model.url,
      // the README leaves curl to end at the stream's next heartbeat after the filter is done
      SESSION_STREAM_HEARTBEAT_MS: "200",
    }),
  );
});

afterAll(async () => {
  await platform?.close();
  await model?.close();
  await database?.drop();
});

async function runQuickStart(env: Record<string, string> = {}): Promise<string> {
  const [script] = quickStartBlocks();
  expect(script?.lang).toBe("sh");
  expect(script!.body.split(README_BASE)).toHaveLength(2);
  const { AGENT_MODEL: _ignored, ...parentEnv } = process.env;
  const { stdout } = await promisify(execFile)("bash", ["-c", script!.body.replace(README_BASE, platform.url!)], {
    cwd: home,
    timeout: 60_000,
    env: { ...parentEnv, ...env },
  });
  return stdout;
}

describe("README quick start", () => {
  it("runs as written, waits for the reply and prints the output shown in the README", async () => {
    const [, output] = quickStartBlocks();
    expect(output?.lang).toBe("");

    const stdout = await runQuickStart();

    expect(stdout).toBe(output!.body);
    expect(stdout).toMatch(/^\d+ agent\.message Hello!$/m);
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^\d+ session\.status_idle end_turn$/);
  });

  it("with AGENT_MODEL set to a provider's model, prints that model's answer", async () => {
    model.enqueue({ text: MODEL_REPLY, delayMs: 300 });

    const stdout = await runQuickStart({ AGENT_MODEL: "openai-compatible/fake-model" });

    expect(stdout).toMatch(new RegExp(`^\\d+ agent\\.message ${MODEL_REPLY.replace(/[.?]/g, "\\$&")}$`, "m"));
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^\d+ session\.status_idle end_turn$/);
    const call = model.requests.find((r) => r.path === "/v1/chat/completions");
    expect(call?.body.model).toBe("fake-model");
    expect(JSON.stringify(call?.body.messages)).toContain("Hello!");
  });
});
