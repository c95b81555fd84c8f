import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { OpenContextOptions } from "./browser-provider.js";

const crashed = new WeakSet<Page>();

/** Whether the page's renderer crashed (the page is being closed; calls go to a new page). */
export function hasCrashed(page: Page): boolean {
  return crashed.has(page);
}

export interface TracedContext {
  context: BrowserContext;
  /** Closes the context; the trace when it was recorded (a Playwright trace zip). */
  close(): Promise<Uint8Array | null>;
}

/**
 * A session's context in a browser (local or remote), recording from the start when asked. A page whose renderer
 * crashed (e.g. stopped by the memory limit) is closed, so the next call opens a fresh page.
 */
export async function openTracedContext(
  browser: Browser,
  options: OpenContextOptions,
  proxyServer?: string,
): Promise<TracedContext> {
  const context = await browser.newContext({
    ...(proxyServer ? { proxy: { server: proxyServer } } : {}),
    acceptDownloads: false,
    serviceWorkers: "block",
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  context.on("page", (page) =>
    page.once("crash", () => {
      crashed.add(page);
      void page.close().catch(() => {});
    }),
  );
  if (options.record) await context.tracing.start({ screenshots: true, snapshots: true });
  return {
    context,
    async close() {
      let trace: Uint8Array | null = null;
      try {
        if (options.record) {
          // The trace is streamed to this process (also from a remote browser) and written here.
          const path = join(tmpdir(), `agent-platform-trace-${randomUUID()}.zip`);
          await context.tracing.stop({ path });
          trace = await readFile(path);
          await rm(path, { force: true });
        }
      } finally {
        await context.close().catch(() => {});
      }
      return trace;
    },
  };
}
