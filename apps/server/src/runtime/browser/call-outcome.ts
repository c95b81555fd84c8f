import type { Page } from "playwright-core";
import { checkEgress } from "../../governance/index.js";
import { fail } from "../tools/tool-result.js";
import type { ToolResult } from "../tools/types.js";
import type { OpenedContext } from "./browser-provider.js";
import type { BrowserTooling } from "./browser-tooling.js";
import { landedRefusal } from "./intercepted-egress.js";

/** A Playwright error's first line, without its call log. */
export function playwrightReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.replace(/^(page|locator|frame)\.\w+: /, "");
}

/** A failed action's tool error; when the browser itself is gone, the session's context is dropped for a new one. */
export async function lostOrFailed(
  tooling: BrowserTooling,
  sessionId: string,
  opened: OpenedContext,
  action: string,
  error: unknown,
): Promise<ToolResult> {
  const stopped = await opened.stopReason().catch(() => null);
  if (!opened.alive()) {
    // Not awaited: closing waits for this call, which is still running.
    void tooling.contexts.close(sessionId);
    return fail(
      `browser ${action} failed: ${stopped ?? "the browser stopped"}. The next browser call starts a new one.`,
    );
  }
  const reason = playwrightReason(error);
  if (/crash/i.test(reason)) {
    return fail(
      `browser ${action} failed: the page crashed${stopped ? ` (${stopped})` : ""}. The next call opens a new page.`,
    );
  }
  return fail(`browser ${action} failed: ${reason}`);
}

/**
 * After an action in a browser whose egress is enforced by interception: a page that a redirect (not seen by the
 * interception) brought to a refused address is left for a blank one, and the action answers the refusal.
 */
export async function landingChecked(
  result: ToolResult,
  page: Page,
  tooling: BrowserTooling,
  sessionId: string,
): Promise<ToolResult> {
  const policy = tooling.policies.get(sessionId);
  if (!policy) return result;
  const landed = page.url();
  const reason = landedRefusal((url) => {
    const decision = checkEgress(policy, url);
    return decision.allowed ? null : decision.reason;
  }, landed);
  if (!reason) return result;
  await page.goto("about:blank").catch(() => {});
  return fail(`${reason}. URL not opened: ${landed.slice(0, 500)}`);
}
