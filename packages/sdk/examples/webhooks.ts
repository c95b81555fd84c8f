import { AgentPlatform } from "@agent-platform/sdk";
// The receiver needs only this entry (about 5 KB gzip in a bundle).
import { verifyWebhook, WebhookVerificationError } from "@agent-platform/sdk/webhooks";

// Once, with an admin key: the secret is shown only here (and when rotated).
const platform = new AgentPlatform();
const endpoint = await platform.webhooks.create({
  url: "https://example.com/agent-platform/webhooks",
  events: ["session.idle", "session.requires_action"],
});
console.log("store this secret:", endpoint.secret);

// The receiver: a fetch-style handler (Node.js, Deno, Bun, Cloudflare Workers, Next.js route handlers…).
export async function handleWebhook(request: Request): Promise<Response> {
  const body = await request.text(); // the raw body: never re-serialised JSON
  try {
    const event = verifyWebhook(body, request.headers, endpoint.secret);
    if (event.type === "session.requires_action") console.log(event.data.sessionId, event.data.pendingActions);
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response("invalid signature", { status: 400 });
    throw error;
  }
}
