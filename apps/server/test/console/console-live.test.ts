import { describe, expect, it } from "vitest";
import { startTcpRelay } from "../support/tcp-relay.js";
import { hasChromium, openConsole, signIn, unexpectedProblems } from "./console-browser.js";
import { consoleSuite, FAKE_MODEL } from "./console-suite.js";

const s = consoleSuite({ fakeModel: true });

describe.skipIf(!hasChromium)("live text in the console", () => {
  it("shows the reply in pieces as the model writes it, then the final message in its place", async () => {
    const reply = "The quick brown fox jumps over the lazy dog and keeps running far away";
    s.fake.enqueue({ text: reply, chunkDelayMs: 150 });
    const agent = await s.platform.agents.create({ name: "Writer", model: FAKE_MODEL });
    const session = await s.platform.sessions.create({ agent: agent.id, title: "Live text" });

    const { page, problems, foreign, screenshot } = await openConsole(s.browser, s.t.url);
    await signIn(page, s.t.url, s.t.tenant.key, `/console/sessions/${session.id}`);
    await page
      .getByRole("status")
      .filter({ hasText: /^live$/ })
      .waitFor({ timeout: 15_000 });
    // The follower is connected with deltas before the message is sent, so the model call is streamed.
    await page.getByLabel("Message", { exact: true }).fill("write something");
    await page.getByRole("button", { name: "Send", exact: true }).click();

    const log = page.getByRole("log", { name: "Session log" });
    const live = log.getByRole("article", { name: "reply being written" });
    const final = log.getByRole("article", { name: "agent message" });
    const pieces: string[] = [];
    let shot = false;
    const deadline = Date.now() + 30_000;
    while ((await final.count()) === 0 && Date.now() < deadline) {
      // allTextContents does not wait: the live article may be replaced by the final one between two reads.
      const text = (await live.locator(".live-text").allTextContents())[0] ?? "";
      if (text && text !== pieces.at(-1)) pieces.push(text);
      if (!shot && pieces.length >= 2) {
        await screenshot("session-live-text");
        shot = true;
      }
      await page.waitForTimeout(40);
    }
    await expect.poll(() => final.textContent(), { timeout: 20_000 }).toContain(reply);
    // Several growing prefixes of the reply were on screen before the final message.
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    for (const piece of pieces) expect(reply.startsWith(piece.trim())).toBe(true);
    expect(pieces[0]!.length).toBeLessThan(reply.length);
    // The final entry replaces the live text.
    await expect.poll(() => live.count()).toBe(0);
    expect(await final.count()).toBe(1);
    expect(unexpectedProblems(problems)).toEqual([]);
    expect(foreign).toEqual([]);
    await page.context().close();
  }, 90_000);

  it("says the view is not live while the stream is down, and live again once it is back, missing nothing", async () => {
    const agent = await s.platform.agents.create({ name: "Echo", model: "builtin/echo" });
    const session = await s.platform.sessions.create({ agent: agent.id, title: "Connection" });
    // The browser reaches the server through a relay that can be cut like a dropped network.
    const relay = await startTcpRelay({ host: "127.0.0.1", port: Number(new URL(s.t.url).port) });
    const via = `http://127.0.0.1:${relay.port}`;
    const { page, screenshot } = await openConsole(s.browser, via);
    try {
      await signIn(page, via, s.t.tenant.key, `/console/sessions/${session.id}`);
      const badge = page.locator(".page-header [role=status]");
      await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("live");
      await relay.cut();
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toMatch(/^not live/);
      await screenshot("session-not-live");
      // Written while the page cannot hear: it arrives once the stream is back.
      await s.platform.sessions.send(session.id, "during the outage");
      await relay.restore();
      await expect.poll(() => badge.textContent(), { timeout: 60_000 }).toBe("live");
      await page
        .getByRole("log", { name: "Session log" })
        .getByRole("article", { name: "agent message" })
        .getByText("during the outage")
        .waitFor({ timeout: 20_000 });
    } finally {
      await relay.close();
      await page.context().close();
    }
  }, 150_000);
});
