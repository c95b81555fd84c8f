import { expect } from "vitest";
import type { TestApp } from "../support/test-app.js";
import { message } from "./helpers.js";
import { type LogEntry, waitForIdle, waitUntil } from "./loop-helpers.js";
import { openSse } from "./sse-client.js";

/**
 * A turn on a new session of `agentId` whose reply streams to a delta follower and is stopped by a `user.interrupt`
 * once a few deltas arrived. Returns the session id, the log once the turn ended `interrupted`, and the text the cut
 * `agent.message` kept.
 */
export async function interruptStreamedReply(t: TestApp, agentId: string, text: string) {
  const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agentId });
  const id = created.body.id as string;
  const live = await openSse(`${t.url}${t.tenant.base}/sessions/${id}/events/stream?deltas=true`, t.tenant.auth);
  try {
    await t.http
      .post(`${t.tenant.base}/sessions/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message(text)] });
    await waitUntil("a few deltas", async () =>
      live.unnumbered.filter((f) => f.event === "agent.delta").length >= 3 ? true : undefined,
    );
    const interrupted = await t.http
      .post(`${t.tenant.base}/sessions/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [{ type: "user.interrupt" }] });
    expect(interrupted.status).toBe(202);
    const log: LogEntry[] = await waitForIdle(t, t.tenant, id);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "interrupted" });
    const cut = log.find((e) => e.type === "agent.message");
    expect(cut).toMatchObject({ cutShort: true });
    return { id, log, text: cut.content[0].text as string };
  } finally {
    live.close();
  }
}
