import { describe, expect, it } from "vitest";
import { chaosReply, checkLog, runCrashTrial, seededRandom } from "../../bench/chaos/crash-trial.js";
import { apiAndWorkers } from "../support/api-and-workers.js";

// The short, seeded version of `pnpm chaos` (bench/chaos): two trials, each killing the worker process twice.
const world = apiAndWorkers();

describe("crash trials (seeded)", { timeout: 240_000 }, () => {
  it("the checker refuses a log with a lost or doubled step", () => {
    const entry = (seq: number, type: string, extra: Record<string, unknown> = {}) => ({
      seq,
      id: `e${seq}`,
      type,
      ...extra,
    });
    const good = [
      entry(1, "user.message"),
      entry(2, "session.status_running"),
      entry(3, "agent.tool_use"),
      entry(4, "agent.tool_result", { toolUseId: "e3" }),
      entry(5, "agent.message"),
      entry(6, "session.status_idle", { stopReason: "end_turn" }),
    ];
    expect(checkLog("s", good)).toEqual([]);
    expect(
      checkLog("s", [...good.slice(0, 4), entry(5, "agent.tool_result", { toolUseId: "e3" }), ...good.slice(4)]),
    ).not.toEqual([]);
    expect(
      checkLog(
        "s",
        good.filter((e) => e.seq !== 4),
      ),
    ).not.toEqual([]);
  });

  it("every turn completes exactly once while the worker is killed with SIGKILL", async () => {
    const random = seededRandom(20261125);
    const { t, fake } = world;
    fake.respondWith(chaosReply(random));
    const chaos = {
      apiUrl: t.url,
      projectId: t.tenant.projectId,
      apiKey: t.tenant.key,
      startWorker: () => world.startWorker({ WORKER_LEASE_MS: "2000" }),
    };
    for (let trial = 0; trial < 2; trial++) {
      const result = await runCrashTrial(chaos, random, { sessions: 4, kills: 2, killWindowMs: 1200 });
      expect(result.failures).toEqual([]);
      expect(result.turns).toBe(4);
    }
  });
});
