/**
 * The `browser` capability: the tool the model calls, the per-session browser contexts behind it, and the providers
 * that supply browsers (a local Chromium, hosted services over CDP). Everything outside this folder uses it from here.
 */
export { BrowserContexts } from "./browser-contexts.js";
export {
  type BrowserProvider,
  type BrowserProviderName,
  BrowserUnavailable,
  type OpenContextOptions,
  type OpenedContext,
} from "./browser-provider.js";
export { type BrowserSettings, readBrowserSettings } from "./browser-settings.js";
export { browserTool, RECORDING_ARTIFACT, SCREENSHOT_ARTIFACT } from "./browser-tool.js";
export { type BrowserTooling, createBrowserTooling } from "./browser-tooling.js";
export type { ChromiumConfinement } from "./chromium-provider.js";
