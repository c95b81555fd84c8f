import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { type Outbound, startEgressProxy } from "../../lib/outbound/index.js";
import {
  type BrowserProvider,
  BrowserUnavailable,
  type OpenContextOptions,
  type OpenedContext,
} from "./browser-provider.js";

/**
 * Chromium flags: headless without the sandbox that needs privileges a container rarely has (the browser runs as the
 * platform's user; the page is fenced by the egress proxy), no background traffic of its own, no QUIC (which would go
 * around an HTTP proxy), and WebRTC kept from sending UDP outside the proxy.
 */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-breakpad",
  "--metrics-recording-only",
  "--force-webrtc-ip-handling-policy",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/**
 * The self-hosted provider: one Chromium process per worker process (launched at the first use, relaunched if it
 * dies), one context per session, each with its own egress proxy so no state and no policy is shared between sessions.
 */
export function chromiumProvider(executablePath: string | null, outbound: Outbound): BrowserProvider {
  let launching: Promise<Browser> | null = null;

  function browser(): Promise<Browser> {
    if (!executablePath) {
      return Promise.reject(
        new BrowserUnavailable(
          "No Chromium was found for the browser tool: install it (Debian: apt-get install chromium) or set " +
            "BROWSER_EXECUTABLE_PATH to a Chromium or Chrome binary.",
        ),
      );
    }
    // Imported on first use: loading Playwright costs ~0.4 s and tens of MiB that a process without browsing never needs.
    launching ??= import("playwright-core")
      .then(({ chromium }) => chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true }))
      .then(
        (launched) => {
          launched.on("disconnected", () => {
            launching = null;
          });
          return launched;
        },
        (error: Error) => {
          launching = null;
          throw new BrowserUnavailable(`Chromium (${executablePath}) could not start: ${error.message.split("\n")[0]}`);
        },
      );
    return launching;
  }

  return {
    name: "self_hosted",
    async open(options: OpenContextOptions): Promise<OpenedContext> {
      const refusals: string[] = [];
      const proxy = await startEgressProxy({
        outbound,
        judge: options.judge,
        onRefused: (target, reason) => {
          if (refusals.length < 20) refusals.push(`${target.slice(0, 300)}: ${reason}`);
        },
      });
      try {
        const context = await (await browser()).newContext({
          proxy: { server: proxy.url },
          acceptDownloads: false,
          serviceWorkers: "block",
          viewport: options.viewport ?? { width: 1280, height: 800 },
        });
        if (options.record) await context.tracing.start({ screenshots: true, snapshots: true });
        return {
          context,
          takeRefusals: () => refusals.splice(0),
          async close() {
            let trace: Uint8Array | null = null;
            try {
              if (options.record) {
                const path = join(tmpdir(), `agent-platform-trace-${randomUUID()}.zip`);
                await context.tracing.stop({ path });
                trace = await readFile(path);
                await rm(path, { force: true });
              }
            } finally {
              await context.close().catch(() => {});
              await proxy.close();
            }
            return trace;
          },
        };
      } catch (error) {
        await proxy.close();
        throw error;
      }
    },
    async close() {
      const current = launching;
      launching = null;
      if (current) await (await current.catch(() => null))?.close();
    },
  };
}
