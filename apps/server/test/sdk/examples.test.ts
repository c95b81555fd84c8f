import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The README's examples run against a real platform (the `builtin/echo` model answers without a provider), configured
// from the environment the way the README says.
const EXAMPLES_DIR = join(import.meta.dirname, "..", "..", "..", "..", "packages", "sdk", "examples");
const examples = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith(".ts"));

let t: TestApp;
const saved = { ...process.env };
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
  process.env.AGENT_PLATFORM_API_KEY = t.tenant.key;
  process.env.AGENT_PLATFORM_BASE_URL = t.url;
});
afterAll(async () => {
  process.env = saved;
  await t?.close();
});

describe("SDK examples", () => {
  it.each(examples)("%s runs", async (name) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await import(join(EXAMPLES_DIR, name));
      expect(error).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });
});
