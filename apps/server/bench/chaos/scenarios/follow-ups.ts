// Scenario 6: a second message once a session's first tool turn has ended, sent to the API of the process that is
// killed when it runs one (`ROLE=all`, `world.killedApiUrl`). That process ran the first turn, so its ingestion claims
// the second turn in the statement that stores the message and runs it at once, with no job notification: a kill
// there must leave the turn to the lease expiry like any other. The client retries a refused or failed request with
// the message's idempotency key, as a client of a restarting server does.
import { checkCounts, checkLogShape, checkToolPairs } from "../log-checks.js";
import type { Scenario } from "../scenario.js";
import { type ChaosWorld, type Entry, pollUntil, readLog, settled, sleep } from "../world.js";
import { startToolSessions } from "./tool-turns.js";

type Handles = { sessions: string[]; sent: Set<string> };

/** What is wrong with a session after its two tool turns: two messages, two tool uses with their results, two answers. */
export function checkFollowUpTurns(sessionId: string, log: readonly Entry[]): string[] {
  return [
    ...checkLogShape(sessionId, log),
    ...checkCounts(sessionId, log, {
      "user.message": 2,
      "agent.tool_use": 2,
      "agent.tool_result": 2,
      "agent.message": 2,
    }),
    ...checkToolPairs(sessionId, log),
  ];
}

/** Posts the follow-up to the killed process's API until it is stored (or the deadline passes). */
async function sendFollowUp(world: ChaosWorld, sessionId: string, text: string, deadline: number): Promise<boolean> {
  const url = `${world.killedApiUrl ?? world.apiUrl}/v1/projects/${world.projectId}/sessions/${sessionId}/events`;
  const body = JSON.stringify({
    events: [{ type: "user.message", content: [{ type: "text", text }], idempotencyKey: `follow-up-${sessionId}` }],
  });
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${world.apiKey}`, "content-type": "application/json" },
        body,
      });
      await res.arrayBuffer();
      if (res.ok) return true;
      if (res.status < 500) throw new Error(`follow-up to ${sessionId}: ${res.status}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("follow-up")) throw error;
      // Killed or restarting: try again.
    }
    await sleep(100);
  }
  return false;
}

export function followUps(sessions: number): Scenario<Handles> {
  return {
    name: "follow-up",
    unit: "turns",
    async start(world) {
      return { sessions: await startToolSessions(world, sessions, "First task"), sent: new Set() };
    },
    async drive(world, handles, plan) {
      await Promise.all(
        handles.sessions.map(async (id, i) => {
          const first = await pollUntil(plan.deadline, async () =>
            settled(await readLog(world, id)) ? true : undefined,
          );
          if (!first) return; // the check reports the turn that never ended
          if (await sendFollowUp(world, id, `Second task ${i}`, plan.deadline)) handles.sent.add(id);
        }),
      );
    },
    async check(world, handles, plan) {
      const failures: string[] = [];
      for (const id of handles.sessions) {
        if (!handles.sent.has(id)) {
          failures.push(`${id}: the follow-up was never stored`);
          continue;
        }
        let last: Entry[] = [];
        const log = await pollUntil(plan.deadline, async () => {
          last = await readLog(world, id);
          const messages = last.filter((e) => e.type === "user.message").length;
          return messages >= 2 &&
            settled(last) &&
            last.at(-1)!.seq > last.findLast((e) => e.type === "user.message")!.seq
            ? last
            : undefined;
        });
        failures.push(
          ...(log
            ? checkFollowUpTurns(id, log)
            : [`${id}: the second turn did not end (last: ${last.at(-1)?.type} ${last.at(-1)?.stopReason ?? ""})`]),
        );
      }
      return { units: handles.sessions.length * 2, failures };
    },
  };
}
