// `pnpm --filter @agent-platform/server bench:browser`: the self-hosted browser's start and a `navigate`, unconfined
// (BROWSER_CONFINEMENT=none: Chromium as the worker's user, Chromium's sandbox off, as before issue #36) and confined
// (the default: bubblewrap boundary, cgroup limits, unprivileged user, Chromium's own sandbox on). Medians of ROUNDS.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createOutbound } from "../src/lib/outbound/index.js";
import { type BrowserConfinement, readBrowserSettings } from "../src/runtime/browser/browser-settings.js";
import { chromiumProvider } from "../src/runtime/browser/chromium-provider.js";

const ROUNDS = 7;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(confinement: BrowserConfinement, url: string) {
  const settings = readBrowserSettings({ BROWSER_CONFINEMENT: confinement });
  const provider = chromiumProvider(settings, createOutbound({ allowCidrs: "127.0.0.0/8" }), pino({ level: "warn" }));
  const start: number[] = [];
  const first: number[] = [];
  const next: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    const opened = await provider.open({ record: false, judge: () => null });
    const page = await opened.context.newPage();
    start.push(performance.now() - t0);
    t0 = performance.now();
    await page.goto(`${url}/?round=${round}`, { waitUntil: "domcontentloaded" });
    first.push(performance.now() - t0);
    t0 = performance.now();
    await page.goto(`${url}/next?round=${round}`, { waitUntil: "domcontentloaded" });
    next.push(performance.now() - t0);
    await opened.close();
  }
  await provider.close();
  return { confinement, startMs: median(start), firstNavigateMs: median(first), navigateMs: median(next) };
}

const site = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "text/html" });
  res.end("<!doctype html><title>Bench</title><h1>Hello</h1><p>A page.</p>");
});
await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const rows = [await measure("none", url), await measure("strict", url)];
site.close();
console.table(
  rows.map((r) => ({
    ...r,
    startMs: Math.round(r.startMs),
    firstNavigateMs: Math.round(r.firstNavigateMs),
    navigateMs: Math.round(r.navigateMs),
  })),
);
