import type { BrowserContext } from "playwright-core";

export type BrowserProviderName = "self_hosted" | "provider_a_cloud" | "provider_b";

export interface OpenContextOptions {
  viewport?: { width: number; height: number };
  /** Record the browsing for replay (a Playwright trace) from the start. */
  record: boolean;
  /** The host-name policy every request of the context passes: null when allowed, else the reason. */
  judge(url: URL): string | null;
  /** The agent's `browser.region` (hosted providers map it to theirs). */
  region?: string;
  /** The secrets of the session's vaults (a hosted provider's key may be among them). */
  sessionSecrets?(): Promise<Record<string, string>>;
}

/** A browser context of one session, with what its provider needs to tear it down. */
export interface OpenedContext {
  context: BrowserContext;
  /** Requests refused by the egress rules since the last call (what was asked, and why); emptied by the call. */
  takeRefusals(): string[];
  /** False once the browser behind the context is gone (crashed, killed by its limits, remote session lost). */
  alive(): boolean;
  /** Why the browser or a page of it stopped, when known (a limit reached, a remote session lost), else null. */
  stopReason(): Promise<string | null>;
  /**
   * Whether the page's address is checked again after an action: egress is enforced by interception, which does not
   * see redirect hops (hosted browsers); the self-hosted proxy sees every hop.
   */
  checksLanding?: boolean;
  /** Closes the context; the trace when it was recorded (a Playwright trace zip). */
  close(): Promise<Uint8Array | null>;
}

/**
 * Where a browser runs. The self-hosted provider drives a confined local Chromium; a hosted provider connects to its
 * service's browser (Playwright `connectOverCDP`) and returns the same kind of context.
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
