import type { AppContext } from "../../context.js";
import type { MergedEgressPolicy } from "../../governance/index.js";
import type { RuntimeTool } from "../tools/types.js";
import { BrowserContexts } from "./browser-contexts.js";
import type { BrowserProvider } from "./browser-provider.js";
import { type BrowserSettings, readBrowserSettings } from "./browser-settings.js";
import { browserTool } from "./browser-tool.js";
import { type ChromiumConfinement, chromiumProvider } from "./chromium-provider.js";
import { hostedProvider, unconfiguredHostedProvider } from "./hosted-provider.js";
import { type HostedProviderName, readHostedSettings } from "./hosted-settings.js";

/** What the `browser` tool shares across the passes of a worker process. */
export interface BrowserTooling {
  contexts: BrowserContexts;
  settings: BrowserSettings;
  /** Each browsing session's egress policy as read by its latest call (the proxy judges with the newest). */
  policies: Map<string, MergedEgressPolicy>;
  /** How the self-hosted browser is confined on this host (for the log and readiness details). */
  confinement(): Promise<ChromiumConfinement>;
  /** The `browser` tool of a session (with its read-only view). */
  tool(): RuntimeTool;
}

function hosted(ctx: AppContext, name: HostedProviderName): BrowserProvider {
  const settings = readHostedSettings(ctx.config.env, name);
  return settings ? hostedProvider(settings, ctx.outbound, ctx.logger) : unconfiguredHostedProvider(name);
}

export function createBrowserTooling(ctx: AppContext): BrowserTooling {
  const settings = readBrowserSettings(ctx.config.env);
  const selfHosted = chromiumProvider(settings, ctx.outbound, ctx.logger);
  const contexts = new BrowserContexts({
    providers: {
      self_hosted: selfHosted,
      provider_a_cloud: hosted(ctx, "provider_a_cloud"),
      provider_b: hosted(ctx, "provider_b"),
    },
    maxContexts: settings.maxContexts,
    idleTimeoutMs: settings.idleTimeoutMs,
    logger: ctx.logger,
  });
  // Information for operators (a worker without a browser still works): not a readiness check.
  ctx.readiness.addDetail("browser", async () => describeConfinement(await selfHosted.confinement()));
  const tooling: BrowserTooling = {
    contexts,
    settings,
    policies: new Map(),
    confinement: () => selfHosted.confinement(),
    tool: () => browserTool(tooling),
  };
  return tooling;
}

function describeConfinement(confinement: ChromiumConfinement): string {
  switch (confinement.state) {
    case "confined":
      return confinement.chromiumSandbox
        ? "confined: bubblewrap boundary and Chromium's sandbox"
        : "confined: bubblewrap boundary only (BROWSER_CONFINEMENT=boundary)";
    case "unconfined":
      return "unconfined (BROWSER_CONFINEMENT=none)";
    case "refused":
      return `off: ${confinement.reason}`;
  }
}
