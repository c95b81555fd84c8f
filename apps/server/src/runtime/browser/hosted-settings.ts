import { integerSetting } from "../../lib/env.js";
import type { BrowserProviderName } from "./browser-provider.js";

export type HostedProviderName = Exclude<BrowserProviderName, "self_hosted">;

/**
 * How each hosted service hands out a browser and expects its key (docs/operating.md, "Hosted browsers"): the
 * variables' prefix, the header the key goes in, and the fields of its session-creation answer.
 */
export const HOSTED_DIALECTS: Record<
  HostedProviderName,
  { prefix: string; authHeader(key: string): [string, string]; idField: string; urlField: string }
> = {
  provider_a_cloud: {
    prefix: "BROWSER_PROVIDER_A_CLOUD",
    authHeader: (key) => ["authorization", `Bearer ${key}`],
    idField: "id",
    urlField: "cdpUrl",
  },
  provider_b: {
    prefix: "BROWSER_PROVIDER_B",
    authHeader: (key) => ["x-api-key", key],
    idField: "sessionId",
    urlField: "connectUrl",
  },
};

/** An operator's configuration of one hosted provider; null when neither endpoint is set. */
export interface HostedSettings {
  name: HostedProviderName;
  /** `…_SESSION_URL`: an HTTP endpoint that creates a remote browser session (POST) and releases it (DELETE `/<id>`). */
  sessionUrl: URL | null;
  /** `…_CDP_URL`: a fixed CDP WebSocket endpoint (used when there is no session endpoint). */
  cdpUrl: URL | null;
  /** `…_API_KEY`: the service's key (a session's vault may hold its own under the same name). */
  apiKey: string | null;
  /** `…_REGIONS`: the agent's `browser.region` → the service's region (`eu=eu-central-1,us=us-east-1`). */
  regions: Map<string, string>;
  /** `…_CONNECT_TIMEOUT_MS` (default 30 s): bounds creating the session and connecting to its browser. */
  connectTimeoutMs: number;
}

function urlSetting(env: Record<string, string | undefined>, name: string, protocols: string[]): URL | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute URL`);
  }
  if (!protocols.includes(url.protocol)) throw new Error(`${name} must be a ${protocols.join(" or ")} URL`);
  return url;
}

function regionsSetting(env: Record<string, string | undefined>, name: string): Map<string, string> {
  const regions = new Map<string, string>();
  for (const entry of (env[name] ?? "").split(",").map((e) => e.trim())) {
    if (!entry) continue;
    const [from, to] = entry.split("=").map((p) => p.trim());
    if (!from || !to) throw new Error(`${name} entries must read region=provider-region (got ${entry})`);
    regions.set(from, to);
  }
  return regions;
}

/** The variables that configure a provider, for the "not configured" message. */
export function hostedVariables(name: HostedProviderName): string {
  const p = HOSTED_DIALECTS[name].prefix;
  return `${p}_SESSION_URL (or ${p}_CDP_URL) and ${p}_API_KEY`;
}

export function readHostedSettings(
  env: Record<string, string | undefined>,
  name: HostedProviderName,
): HostedSettings | null {
  const p = HOSTED_DIALECTS[name].prefix;
  const sessionUrl = urlSetting(env, `${p}_SESSION_URL`, ["http:", "https:"]);
  const cdpUrl = urlSetting(env, `${p}_CDP_URL`, ["ws:", "wss:", "http:", "https:"]);
  if (!sessionUrl && !cdpUrl) return null;
  return {
    name,
    sessionUrl,
    cdpUrl,
    // Spelled with its literal start, so that the docs test finds every hosted variable (its TEMPLATES list).
    apiKey: env[`BROWSER_PROVIDER_${p.slice("BROWSER_PROVIDER_".length)}_API_KEY`]?.trim() || null,
    regions: regionsSetting(env, `${p}_REGIONS`),
    connectTimeoutMs: integerSetting(env, `${p}_CONNECT_TIMEOUT_MS`, 30_000, 1_000, 600_000),
  };
}
