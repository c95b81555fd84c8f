import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { findAddressRefusal } from "../lib/outbound/index.js";

/**
 * A receiver the outbound address policy refuses (loopback, private, link-local… unless `EGRESS_ALLOW_CIDRS` opens
 * it) is refused when the endpoint is written, with the message a delivery would record. A name that does not resolve
 * now is accepted: DNS may change, and every delivery checks the address again.
 */
export async function checkReceiverAddress(ctx: AppContext, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  try {
    await ctx.outbound.resolveChecked(new URL(url).hostname);
  } catch (error) {
    const refusal = findAddressRefusal(error);
    if (!refusal) return;
    throw new AppError("request.invalid", `body.url: ${refusal.message}`, {
      issues: [{ path: "body.url", message: refusal.message }],
    });
  }
}
