import { AgentPlatform } from "@agent-platform/sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { hasChromium, launchBrowser } from "./console-browser.js";

/** The model of the loopback OpenAI-compatible fake, for tests that script replies. */
export const FAKE_MODEL = "openai-compatible/fake-model";

export interface ConsoleSuite {
  t: TestApp;
  platform: AgentPlatform;
  browser: Browser;
  /** The loopback model (with `fakeModel`), reset before each test. */
  fake: FakeOpenAI;
}

/**
 * What a console test file needs, started once for the file: a server running turns (`role: all`), an SDK client of
 * its tenant, Chromium, and with `fakeModel` the OpenAI-compatible fake as `openai-compatible/fake-model`.
 */
export function consoleSuite(options: { fakeModel?: boolean; env?: Record<string, string> } = {}): ConsoleSuite {
  const suite = {} as ConsoleSuite;
  beforeAll(async () => {
    if (options.fakeModel) suite.fake = await startFakeOpenAI();
    suite.t = await startTestApp({
      role: "all",
      env: { ...(options.fakeModel ? { OPENAI_COMPATIBLE_BASE_URL: suite.fake.url } : {}), ...options.env },
    });
    suite.platform = new AgentPlatform({ baseUrl: suite.t.url, apiKey: suite.t.tenant.key });
    if (hasChromium) suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.t?.close();
    await suite.fake?.close();
  });
  if (options.fakeModel) beforeEach(() => suite.fake.reset());
  return suite;
}
