import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Browser } from "playwright-core";
import { type Outbound, startEgressProxy } from "../../lib/outbound/index.js";
import {
  type BrowserProvider,
  BrowserUnavailable,
  type OpenContextOptions,
  type OpenedContext,
} from "./browser-provider.js";
import type { BrowserSettings } from "./browser-settings.js";
import {
  type BoundaryProbe,
  browserEnvironment,
  browserOwner,
  CONFINED_PROXY_SERVER,
  type ConfinedLaunch,
  prepareConfinedLaunch,
  probeBoundary,
} from "./confined-launch.js";
import { openTracedContext } from "./traced-context.js";

/**
 * Chromium flags: headless, no background traffic of its own, no QUIC (which would go around an HTTP proxy), and
 * WebRTC kept from sending UDP outside the proxy. Chromium's own sandbox stays on unless the operator chose otherwise.
 */
const CHROMIUM_ARGS = [
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

const NO_SANDBOX = /no usable sandbox/i;

/** What the self-hosted browser runs as, for the log and readiness: decided at the first use. */
export type ChromiumConfinement =
  | { state: "confined"; chromiumSandbox: boolean }
  | { state: "unconfined" }
  | { state: "refused"; reason: string };

/**
 * The self-hosted provider: one Chromium per browsing session, each inside its own boundary (bubblewrap namespaces,
 * cgroup limits, an unprivileged user, Chromium's own sandbox), reaching the network only through its own egress
 * proxy, so no state, no policy and no memory budget is shared between sessions.
 */
export function chromiumProvider(
  settings: BrowserSettings,
  outbound: Outbound,
  logger: Logger,
): BrowserProvider & { confinement(): Promise<ChromiumConfinement> } {
  const { executablePath, boundary } = settings;
  const open = new Set<() => Promise<unknown>>();
  let probed: Promise<BoundaryProbe> | undefined;
  let sandboxWorks: boolean | undefined;

  async function refusal(): Promise<string | null> {
    if (boundary.confinement === "none") return null;
    probed ??= probeBoundary(boundary).then((probe) => {
      if (probe.ok) logger.info({ confinement: boundary.confinement }, "browsers run confined");
      else logger.error({ reason: probe.reason }, "the browser tool is off: browsers cannot be confined here");
      return probe;
    });
    const probe = await probed;
    return probe.ok ? null : probe.reason;
  }

  async function launch(launcher: ConfinedLaunch | null, home: string): Promise<Browser> {
    const { chromium } = await import("playwright-core");
    const start = (sandbox: boolean) =>
      chromium.launch({
        executablePath: launcher?.executablePath ?? executablePath!,
        args: CHROMIUM_ARGS,
        // Playwright adds --no-sandbox unless told otherwise.
        chromiumSandbox: sandbox,
        env: browserEnvironment(home),
        headless: true,
        ...(launcher ? { proxy: { server: CONFINED_PROXY_SERVER } } : {}),
      });
    if (!launcher) return start(false);
    if (sandboxWorks === false) return start(false);
    try {
      const browser = await start(true);
      sandboxWorks = true;
      return browser;
    } catch (error) {
      if (!NO_SANDBOX.test((error as Error).message)) throw error;
      if (boundary.confinement === "strict") {
        throw new BrowserUnavailable(
          "Chromium's own sandbox cannot start inside the browser's boundary on this host (it needs user namespaces " +
            "inside it). Set BROWSER_CONFINEMENT=boundary to browse inside the boundary alone (see docs/operating.md).",
        );
      }
      logger.warn("Chromium's own sandbox cannot start here: browsing inside the bubblewrap boundary alone");
      sandboxWorks = false;
      return start(false);
    }
  }

  async function confinement(): Promise<ChromiumConfinement> {
    if (boundary.confinement === "none") return { state: "unconfined" };
    const refused = await refusal();
    if (refused) return { state: "refused", reason: refused };
    return { state: "confined", chromiumSandbox: sandboxWorks !== false };
  }

  if (boundary.confinement === "none") {
    logger.warn(
      "BROWSER_CONFINEMENT=none: browsers run unconfined, as this process's user, without Chromium's sandbox",
    );
  } else {
    // Probed now so that the log says at start whether browsing is possible here.
    void refusal();
  }

  return {
    name: "self_hosted",
    confinement,
    async open(options: OpenContextOptions): Promise<OpenedContext> {
      if (!executablePath) {
        throw new BrowserUnavailable(
          "No Chromium was found for the browser tool: install it (Debian: apt-get install chromium) or set " +
            "BROWSER_EXECUTABLE_PATH to a Chromium or Chrome binary.",
        );
      }
      const refused = await refusal();
      if (refused) throw new BrowserUnavailable(refused);
      const id = randomUUID();
      const launcher =
        boundary.confinement === "none" ? null : await prepareConfinedLaunch(boundary, executablePath, id);
      const refusals: string[] = [];
      const cleanups: Array<() => Promise<unknown>> = [];
      const cleanup = async () => {
        for (const step of cleanups.reverse()) await step().catch(() => {});
      };
      if (launcher) cleanups.push(() => launcher.dispose());
      try {
        let home = "/tmp";
        if (!launcher) {
          home = join(boundary.root, id);
          await mkdir(home, { recursive: true, mode: 0o700 });
          cleanups.push(() => rm(home, { recursive: true, force: true }));
        }
        const proxy = await startEgressProxy({
          outbound,
          judge: options.judge,
          onRefused: (target, reason) => {
            if (refusals.length < 20) refusals.push(`${target.slice(0, 300)}: ${reason}`);
          },
          ...(launcher ? { listen: { path: launcher.proxySocket, ...browserOwner(boundary) } } : {}),
        });
        cleanups.push(() => proxy.close());
        const browser = await launch(launcher, home).catch((error: Error) => {
          if (error instanceof BrowserUnavailable) throw error;
          throw new BrowserUnavailable(`Chromium (${executablePath}) could not start: ${error.message.split("\n")[0]}`);
        });
        cleanups.push(() => browser.close());
        const opened = await openTracedContext(browser, options, launcher ? undefined : proxy.url);
        const close = async () => {
          open.delete(close);
          try {
            return await opened.close();
          } finally {
            await cleanup();
          }
        };
        open.add(close);
        return {
          context: opened.context,
          takeRefusals: () => refusals.splice(0),
          alive: () => browser.isConnected(),
          stopReason: async () =>
            (await launcher?.outOfMemory())
              ? `the browser reached its memory limit (BROWSER_MEMORY_MB=${boundary.memoryBytes / 1024 / 1024})`
              : null,
          close,
        };
      } catch (error) {
        await cleanup();
        throw error;
      }
    },
    async close() {
      await Promise.all([...open].map((close) => close().catch(() => {})));
    },
  };
}
