import type { BrowserContext } from "playwright-core";

export type BrowserProviderName = "self_hosted" | "provider_a_cloud" | "provider_b";

export interface OpenContextOptions {
  viewport?: { width: number; height: number };
  /** Record the browsing for replay (a Playwright trace) from the start. */
  record: boolean;
  /** The host-name policy every request of the context passes: null when allowed, else the reason. */
  judge(url: URL): string | null;
}

/** A browser context of one session, with what its provider needs to tear it down. */
export interface OpenedContext {
  context: BrowserContext;
  /** Requests refused by the egress rules since the last call (what was asked, and why); emptied by the call. */
  takeRefusals(): string[];
  /** False once the browser behind the context is gone (crashed, killed by its limits, remote session lost). */
  alive(): boolean;
  /** What the browser lost to one of its limits (e.g. a process stopped at the memory limit), else null. */
  limitHit(): Promise<string | null>;
  /** Closes the context; the trace when it was recorded (a Playwright trace zip). */
  close(): Promise<Uint8Array | null>;
}

/**
 * Where a browser runs. The self-hosted provider drives a local Chromium; a hosted provider would connect to its
 * service's browser (Playwright `connectOverCDP`) and return the same kind of context.
 */
export interface BrowserProvider {
  readonly name: BrowserProviderName;
  /** Throws `BrowserUnavailable` with a readable reason when the provider cannot serve. */
  open(options: OpenContextOptions): Promise<OpenedContext>;
  close(): Promise<void>;
}

/** The provider cannot open a browser here (no Chromium, a hosted provider without configuration…). */
export class BrowserUnavailable extends Error {
  override readonly name = "BrowserUnavailable";
}

/** A hosted provider with no configuration on this platform: every call says what is missing. */
export function unconfiguredHostedProvider(name: Exclude<BrowserProviderName, "self_hosted">): BrowserProvider {
  return {
    name,
    async open() {
      throw new BrowserUnavailable(
        `The browser provider "${name}" is not configured on this platform: it has no endpoint or credentials for ` +
          `it. Use the self-hosted browser (set the agent's \`browser\` to null or {"provider": "self_hosted"}).`,
      );
    },
    async close() {},
  };
}
