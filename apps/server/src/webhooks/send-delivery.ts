import { Webhook } from "standardwebhooks";
import type { AppContext } from "../context.js";
import { checkEgress, loadWorkspaceEgressPolicy, mergeEgressPolicies } from "../governance/index.js";
import { findAddressRefusal } from "../lib/outbound/index.js";

export interface Attempt {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

export interface Target {
  workspaceId: string;
  url: string;
  /** Every secret that signs (the current one, and the previous one during a rotation overlap). */
  secrets: string[];
}

const USER_AGENT = "AgentPlatform-Webhooks/1";

/**
 * One attempt: the body signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature` with
 * one `v1,<base64>` per secret) and POSTed through the outbound address policy, after the workspace's host-name egress
 * policy. A 2xx within the timeout is success; redirects are not followed.
 */
export async function sendDelivery(
  ctx: AppContext,
  target: Target,
  message: { eventId: string; body: string },
  timeoutMs: number,
): Promise<Attempt> {
  const started = performance.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null): Attempt => ({
    ok,
    statusCode,
    error,
    latencyMs: Math.round(performance.now() - started),
  });
  const policy = mergeEgressPolicies(await loadWorkspaceEgressPolicy(ctx.db.prisma, target.workspaceId), null);
  const decision = checkEgress(policy, target.url);
  if (!decision.allowed) return done(false, null, `Refused by the workspace's egress policy: ${decision.reason}`);

  const timestamp = new Date();
  const signature = target.secrets
    .map((secret) => new Webhook(secret).sign(message.eventId, timestamp, message.body))
    .join(" ");
  try {
    const response = await ctx.outbound.fetch(target.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": message.eventId,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: message.body,
    });
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return done(true, response.status, null);
    return done(false, response.status, `HTTP ${response.status}`);
  } catch (error) {
    const refusal = findAddressRefusal(error);
    if (refusal) return done(false, null, refusal.message);
    if (error instanceof DOMException && error.name === "TimeoutError") {
      return done(false, null, `No answer within ${timeoutMs} ms`);
    }
    const cause = (error as { cause?: { message?: string } })?.cause?.message;
    return done(
      false,
      null,
      `Could not be reached: ${cause ?? (error instanceof Error ? error.message : String(error))}`,
    );
  }
}
