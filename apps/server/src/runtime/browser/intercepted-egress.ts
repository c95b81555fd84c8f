import type { BrowserContext } from "playwright-core";
import { findAddressRefusal, type Outbound } from "../../lib/outbound/index.js";
import { EGRESS_REFUSED_HEADER } from "./page-actions.js";

export interface InterceptedEgressOptions {
  outbound: Pick<Outbound, "resolveChecked">;
  judge(url: URL): string | null;
  onRefused(target: string, reason: string): void;
}

/**
 * The egress rules of a remote browser, which fetches from its own network where the platform's proxy cannot stand:
 * every request Playwright sees (navigations, sub-resources, `fetch`/XHR, WebSockets) is judged by the session's
 * host-name policy and the outbound address policy before it leaves, and a refused one is answered as the proxy
 * answers it (403 with the reason and the refusal header), so the tool reports it with the same words.
 * What it cannot see (redirect hops, which Chromium follows itself; WebRTC; the browser's own traffic) is listed in
 * docs/tools.md; `landedRefusal` catches a page that a redirect brought to a refused address.
 */
export async function interceptEgress(context: BrowserContext, options: InterceptedEgressOptions): Promise<void> {
  async function verdict(raw: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    const judged = new URL(url.href.replace(/^ws(s?):/, "http$1:"));
    if (judged.protocol !== "http:" && judged.protocol !== "https:") return null;
    const reason = options.judge(judged);
    if (reason) return reason;
    try {
      await options.outbound.resolveChecked(judged.hostname);
      return null;
    } catch (error) {
      // A name this platform cannot resolve may still resolve in the provider's network: only refusals refuse.
      return findAddressRefusal(error)?.message ?? null;
    }
  }

  await context.route("**/*", async (route) => {
    const url = route.request().url();
    const reason = await verdict(url);
    if (!reason) return route.continue();
    options.onRefused(url, reason);
    return route.fulfill({
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8", [EGRESS_REFUSED_HEADER]: "refused" },
      body: reason,
    });
  });
  await context.routeWebSocket(/.*/, async (ws) => {
    const reason = await verdict(ws.url());
    if (!reason) {
      ws.connectToServer();
      return;
    }
    options.onRefused(ws.url(), reason);
    await ws.close({ code: 1008, reason: "Refused by the egress rules" });
  });
}

/** The reason a page's current address is refused (it got there through a redirect the interception did not see). */
export function landedRefusal(judge: (url: URL) => string | null, current: string): string | null {
  let url: URL;
  try {
    url = new URL(current);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return judge(url);
}
