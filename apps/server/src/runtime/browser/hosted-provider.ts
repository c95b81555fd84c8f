import type { Logger } from "pino";
import type { Browser } from "playwright-core";
import type { Outbound } from "../../lib/outbound/index.js";
import {
  type BrowserProvider,
  BrowserUnavailable,
  type OpenContextOptions,
  type OpenedContext,
} from "./browser-provider.js";
import { HOSTED_DIALECTS, type HostedProviderName, type HostedSettings, hostedVariables } from "./hosted-settings.js";
import { interceptEgress } from "./intercepted-egress.js";
import { openTracedContext } from "./traced-context.js";

/** A hosted provider with no configuration on this platform: every call says what to set. */
export function unconfiguredHostedProvider(name: HostedProviderName): BrowserProvider {
  return {
    name,
    async open() {
      throw new BrowserUnavailable(
        `The browser provider "${name}" is not configured on this platform: the operator sets ${hostedVariables(name)} ` +
          `(docs/operating.md, "Hosted browsers"). Or use the self-hosted browser (set the agent's \`browser\` to null ` +
          `or {"provider": "self_hosted"}).`,
      );
    },
    async close() {},
  };
}

interface RemoteSession {
  id: string;
  cdpUrl: string;
}

/** A reason without the key, whatever a service or a library echoed. */
function scrub(text: string, key: string): string {
  return key ? text.split(key).join("***") : text;
}

/**
 * A hosted browser service: per session and turn, a remote browser session is created (or the fixed CDP endpoint is
 * used), Playwright connects to it over CDP, one context is opened there with the session's egress rules enforced by
 * interception, and at close the context, the connection and the remote session are released. A worker that crashes
 * releases nothing: the service's own idle timeout ends the remote session (docs/tools.md).
 */
export function hostedProvider(settings: HostedSettings, outbound: Outbound, logger: Logger): BrowserProvider {
  const { name } = settings;
  const dialect = HOSTED_DIALECTS[name];
  const keyVariable = `${dialect.prefix}_API_KEY`;
  const open = new Set<() => Promise<unknown>>();

  function region(requested: string | undefined): string | undefined {
    if (!requested || settings.regions.size === 0) return requested;
    const mapped = settings.regions.get(requested);
    if (mapped) return mapped;
    throw new BrowserUnavailable(
      `The browser provider "${name}" offers no region "${requested}" on this platform (configured: ` +
        `${[...settings.regions.keys()].join(", ")}; ${dialect.prefix}_REGIONS)`,
    );
  }

  async function call(method: string, url: URL, key: string, body?: unknown): Promise<Response> {
    const [header, value] = dialect.authHeader(key);
    try {
      return await fetch(url, {
        method,
        headers: { [header]: value, ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(settings.connectTimeoutMs),
      });
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new BrowserUnavailable(
        `The browser provider "${name}" could not be reached at ${url.origin}: ${scrub(cause, key)}`,
      );
    }
  }

  function refusedCredential(status: number): BrowserUnavailable {
    return new BrowserUnavailable(
      `The browser provider "${name}" refused the credential (HTTP ${status}): check ${keyVariable} (or the secret of ` +
        "that name in the session's vault)",
    );
  }

  async function createSession(sessionUrl: URL, key: string, options: OpenContextOptions): Promise<RemoteSession> {
    const mapped = region(options.region);
    const res = await call("POST", sessionUrl, key, mapped ? { region: mapped } : {});
    if (res.status === 401 || res.status === 403) throw refusedCredential(res.status);
    const text = await res.text();
    if (!res.ok) {
      throw new BrowserUnavailable(
        `The browser provider "${name}" answered HTTP ${res.status} when asked for a browser: ${scrub(text, key).slice(0, 300)}`,
      );
    }
    let answer: Record<string, unknown> = {};
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // reported below
    }
    const id = answer[dialect.idField];
    const cdpUrl = answer[dialect.urlField];
    if (typeof id !== "string" || typeof cdpUrl !== "string") {
      throw new BrowserUnavailable(
        `The browser provider "${name}" answered without "${dialect.idField}" and "${dialect.urlField}" when asked for a browser`,
      );
    }
    return { id, cdpUrl };
  }

  async function release(sessionUrl: URL, key: string, remote: RemoteSession): Promise<void> {
    const url = new URL(`${sessionUrl.pathname.replace(/\/$/, "")}/${encodeURIComponent(remote.id)}`, sessionUrl);
    const res = await call("DELETE", url, key).catch((error: Error) => error);
    if (res instanceof Error || (!res.ok && res.status !== 404)) {
      logger.warn(
        { provider: name, remoteSession: remote.id, reason: res instanceof Error ? res.message : `HTTP ${res.status}` },
        "releasing a hosted browser session failed (the provider's own timeout ends it)",
      );
    }
  }

  async function connect(endpoint: string, key: string): Promise<Browser> {
    const { chromium } = await import("playwright-core");
    const [header, value] = dialect.authHeader(key);
    try {
      return await chromium.connectOverCDP(endpoint, {
        headers: { [header]: value },
        timeout: settings.connectTimeoutMs,
      });
    } catch (error) {
      const reason = scrub((error as Error).message.split("\n")[0] ?? "", key);
      if (/\b(401|403)\b/.test(reason)) throw refusedCredential(/\b403\b/.test(reason) ? 403 : 401);
      throw new BrowserUnavailable(`The browser provider "${name}" could not be reached over CDP: ${reason}`);
    }
  }

  return {
    name,
    async open(options: OpenContextOptions): Promise<OpenedContext> {
      const secrets = (await options.sessionSecrets?.()) ?? {};
      const key = secrets[keyVariable] ?? settings.apiKey ?? "";
      if (!key) {
        throw new BrowserUnavailable(
          `The browser provider "${name}" has no API key on this platform: the operator sets ${keyVariable} (or a ` +
            "session's vault holds a secret of that name)",
        );
      }
      const remote = settings.sessionUrl ? await createSession(settings.sessionUrl, key, options) : null;
      const releaseRemote = async () => {
        if (remote && settings.sessionUrl) await release(settings.sessionUrl, key, remote);
      };
      let browser: Browser | null = null;
      try {
        browser = await connect(remote?.cdpUrl ?? settings.cdpUrl!.href, key);
        const refusals: string[] = [];
        const traced = await openTracedContext(browser, options);
        await interceptEgress(traced.context, {
          outbound,
          judge: options.judge,
          onRefused: (target, reason) => {
            if (refusals.length < 20) refusals.push(`${target.slice(0, 300)}: ${reason}`);
          },
        });
        const connected = browser;
        const close = async () => {
          open.delete(close);
          try {
            return await traced.close();
          } finally {
            await connected.close().catch(() => {});
            await releaseRemote();
          }
        };
        open.add(close);
        return {
          context: traced.context,
          takeRefusals: () => refusals.splice(0),
          alive: () => connected.isConnected(),
          stopReason: async () =>
            connected.isConnected()
              ? null
              : `the remote browser of "${name}" was lost (its session ended or the connection broke)`,
          checksLanding: true,
          close,
        };
      } catch (error) {
        await browser?.close().catch(() => {});
        await releaseRemote();
        throw error;
      }
    },
    async close() {
      await Promise.all([...open].map((close) => close().catch(() => {})));
    },
  };
}
