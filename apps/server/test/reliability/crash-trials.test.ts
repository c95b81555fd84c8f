import { describe, expect, it } from "vitest";
import { runCrashTrial, seededRandom } from "../../bench/chaos/crash-trial.js";
import { scheduleFastForward } from "../../bench/chaos/fast-forward.js";
import { chaosModel, echoAnswer } from "../../bench/chaos/model-router.js";
import { checkAutomationRuns, type Run } from "../../bench/chaos/scenarios/automations.js";
import { checkConfirmationTurn } from "../../bench/chaos/scenarios/confirmation.js";
import { checkDelegation } from "../../bench/chaos/scenarios/delegation.js";
import { type CaseResult, checkExperiment, type ExperimentRecord } from "../../bench/chaos/scenarios/experiments.js";
import { checkFollowUpTurns } from "../../bench/chaos/scenarios/follow-ups.js";
import { checkToolTurn } from "../../bench/chaos/scenarios/tool-turns.js";
import type { Entry } from "../../bench/chaos/world.js";
import { freePort } from "../../bench/support.js";
import { apiAndWorkers } from "../support/api-and-workers.js";

// The short, seeded version of `pnpm chaos` (bench/chaos): two trials mixing every scenario at small sizes, each
// killing twice the process that runs the work (a ROLE=worker process, then a ROLE=all one). First, the checkers themselves: each accepts a good record and refuses a lost or
// doubled step.
const world = apiAndWorkers();

const entry = (seq: number, type: string, extra: Partial<Entry> = {}): Entry => ({
  seq,
  id: `e${seq}`,
  type,
  ...extra,
});
const text = (t: string) => [{ type: "text", text: t }];
/** The log with entry `seq` removed and the rest renumbered: a lost step that leaves `seq` contiguous. */
const without = (log: Entry[], seq: number) =>
  log.filter((e) => e.seq !== seq).map((e, i) => ({ ...e, seq: i + 1, id: e.id }));
/** The log with a copy of entry `seq` (a new id) inserted after it, renumbered: a doubled step. */
const doubled = (log: Entry[], seq: number) =>
  log.flatMap((e) => (e.seq === seq ? [e, { ...e, id: `${e.id}-again` }] : [e])).map((e, i) => ({ ...e, seq: i + 1 }));

const replyLog = (answer = "Automation done.") => [
  entry(1, "user.message", { content: text("go") }),
  entry(2, "session.status_running"),
  entry(3, "agent.message", { content: text(answer) }),
  entry(4, "session.status_idle", { stopReason: "end_turn" }),
];

describe("crash trial checkers", () => {
  it("tool turn: accepts a good log, refuses a lost or doubled step", () => {
    const good = [
      entry(1, "user.message"),
      entry(2, "session.status_running"),
      entry(3, "agent.tool_use"),
      entry(4, "agent.tool_result", { toolUseId: "e3" }),
      entry(5, "agent.message"),
      entry(6, "session.status_idle", { stopReason: "end_turn" }),
    ];
    expect(checkToolTurn("s", good)).toEqual([]);
    expect(checkToolTurn("s", doubled(good, 2))).not.toEqual([]);
    expect(checkToolTurn("s", doubled(good, 4))).not.toEqual([]);
    expect(
      checkToolTurn(
        "s",
        good.filter((e) => e.seq !== 4),
      ),
    ).not.toEqual([]);
    expect(checkToolTurn("s", without(good, 5))).not.toEqual([]);
  });

  it("follow-up turns: accepts two whole turns, refuses a lost or doubled second turn", () => {
    const turn = (first: number, use: string) => [
      entry(first, "user.message"),
      entry(first + 1, "session.status_running"),
      entry(first + 2, "agent.tool_use", { id: use }),
      entry(first + 3, "agent.tool_result", { toolUseId: use }),
      entry(first + 4, "agent.message"),
      entry(first + 5, "session.status_idle", { stopReason: "end_turn" }),
    ];
    const good = [...turn(1, "u1"), ...turn(7, "u2")];
    expect(checkFollowUpTurns("s", good)).toEqual([]);
    expect(checkFollowUpTurns("s", good.slice(0, 7))).not.toEqual([]);
    expect(checkFollowUpTurns("s", doubled(good, 10))).not.toEqual([]);
    expect(checkFollowUpTurns("s", doubled(good, 11))).not.toEqual([]);
    expect(checkFollowUpTurns("s", without(good, 11))).not.toEqual([]);
  });

  it("confirmation turn: accepts a good log, refuses a lost, doubled or unconfirmed step", () => {
    const good = [
      entry(1, "user.message"),
      entry(2, "session.status_running"),
      entry(3, "agent.tool_use", { requiresConfirmation: true }),
      entry(4, "session.status_idle", { stopReason: "requires_action" }),
      entry(5, "user.tool_confirmation", { toolUseId: "e3", result: "allow" }),
      entry(6, "session.status_running"),
      entry(7, "agent.tool_result", { toolUseId: "e3", isError: false }),
      entry(8, "agent.message"),
      entry(9, "session.status_idle", { stopReason: "end_turn" }),
    ];
    expect(checkConfirmationTurn("s", good)).toEqual([]);
    expect(checkConfirmationTurn("s", doubled(good, 5))).not.toEqual([]);
    expect(checkConfirmationTurn("s", doubled(good, 7))).not.toEqual([]);
    expect(checkConfirmationTurn("s", without(good, 5))).not.toEqual([]);
    expect(checkConfirmationTurn("s", without(good, 8))).not.toEqual([]);
    // The tool ran before it was confirmed.
    const early = [...good.slice(0, 4), good[6]!, good[4]!, good[5]!, ...good.slice(7)].map((e, i) => ({
      ...e,
      seq: i + 1,
    }));
    expect(checkConfirmationTurn("s", early)).not.toEqual([]);
    // The turn never asked for confirmation.
    expect(
      checkConfirmationTurn(
        "s",
        good.map((e) => (e.seq === 3 ? { ...e, requiresConfirmation: undefined } : e)),
      ),
    ).not.toEqual([]);
  });

  it("delegation: accepts one child per delegation, refuses a lost or second child and a doubled result", () => {
    const task = "Subtask of go";
    const answer = echoAnswer(task);
    const log = [
      entry(1, "user.message"),
      entry(2, "session.status_running"),
      entry(3, "agent.tool_use", { name: "delegate_to_helper" }),
      entry(4, "agent.tool_result", { toolUseId: "e3", isError: false, content: text(answer) }),
      entry(5, "agent.message"),
      entry(6, "session.status_idle", { stopReason: "end_turn" }),
    ];
    const childLog = [
      entry(1, "user.message", { content: text(task) }),
      entry(2, "session.status_running"),
      entry(3, "agent.message", { content: text(answer) }),
      entry(4, "session.status_idle", { stopReason: "end_turn" }),
    ];
    const child = { id: "child", log: childLog };
    expect(checkDelegation("s", log, [child])).toEqual([]);
    expect(checkDelegation("s", log, [])).not.toEqual([]);
    expect(checkDelegation("s", log, [child, { ...child, id: "child-2" }])).not.toEqual([]);
    expect(checkDelegation("s", doubled(log, 4), [child])).not.toEqual([]);
    expect(checkDelegation("s", log, [{ id: "child", log: doubled(childLog, 3) }])).not.toEqual([]);
    expect(checkDelegation("s", log, [{ id: "child", log: without(childLog, 3) }])).not.toEqual([]);
  });

  it("automation: accepts one run per request and per fast-forward, refuses a lost or doubled run", () => {
    const manual = (id: string, sessionId: string): Run => ({
      id,
      triggerKind: "manual",
      status: "started",
      sessionId,
    });
    const runs = [manual("r1", "s1"), manual("r2", "s2")];
    const sessions = [
      { id: "s1", runId: "r1", log: replyLog() },
      { id: "s2", runId: "r2", log: replyLog() },
    ];
    const expected = { manual: ["r1", "r2"] };
    expect(checkAutomationRuns("a", runs, sessions, expected)).toEqual([]);
    expect(checkAutomationRuns("a", runs.slice(0, 1), sessions.slice(0, 1), expected)).not.toEqual([]);
    expect(
      checkAutomationRuns(
        "a",
        [...runs, manual("r3", "s3")],
        [...sessions, { id: "s3", runId: "r3", log: replyLog() }],
        expected,
      ),
    ).not.toEqual([]);
    expect(checkAutomationRuns("a", runs, [...sessions, { ...sessions[0]!, id: "s9" }], expected)).not.toEqual([]);
    expect(
      checkAutomationRuns("a", runs, [sessions[0]!, { ...sessions[1]!, log: doubled(replyLog(), 3) }], expected),
    ).not.toEqual([]);

    const at = "2026-01-01T00:00:00.000Z";
    const fired = (id: string, sessionId: string): Run => ({
      id,
      triggerKind: "schedule",
      scheduledFor: at,
      status: "started",
      sessionId,
    });
    const one = [{ id: "s1", runId: "f1", log: replyLog() }];
    expect(checkAutomationRuns("a", [fired("f1", "s1")], one, { scheduledFor: at })).toEqual([]);
    expect(checkAutomationRuns("a", [], [], { scheduledFor: at })).not.toEqual([]);
    expect(
      checkAutomationRuns(
        "a",
        [fired("f1", "s1"), fired("f2", "s2")],
        [...one, { id: "s2", runId: "f2", log: replyLog() }],
        { scheduledFor: at },
      ),
    ).not.toEqual([]);
  });

  it("experiment: accepts each case recorded and scored once, refuses a lost or doubled case", () => {
    const experiment: ExperimentRecord = {
      id: "exp",
      status: "completed",
      caseCount: 2,
      progress: { done: 2, errored: 0, total: 2 },
      totals: { cases: 2, completed: 2, errored: 0, passRate: 1 },
    };
    const result = (position: number): CaseResult => ({
      position,
      status: "completed",
      input: `case ${position}`,
      output: echoAnswer(`case ${position}`),
      scores: [{ type: "exact_match", passed: true }],
      sessionId: `s${position}`,
    });
    const results = [result(1), result(2)];
    const sessions = [
      { id: "s1", log: replyLog() },
      { id: "s2", log: replyLog() },
    ];
    expect(checkExperiment(experiment, results, 2)).toEqual([]);
    expect(checkExperiment(experiment, results, 2, sessions)).toEqual([]);
    expect(checkExperiment(experiment, results.slice(0, 1), 2)).not.toEqual([]);
    expect(checkExperiment(experiment, [...results, result(2)], 2)).not.toEqual([]);
    expect(checkExperiment({ ...experiment, progress: { done: 3, errored: 0, total: 2 } }, results, 2)).not.toEqual([]);
    expect(
      checkExperiment({ ...experiment, totals: { cases: 3, completed: 3, errored: 0, passRate: 1 } }, results, 2),
    ).not.toEqual([]);
    expect(
      checkExperiment(experiment, [result(1), { ...result(2), scores: [...result(2).scores, ...result(2).scores] }], 2),
    ).not.toEqual([]);
    expect(checkExperiment(experiment, results, 2, [...sessions, { id: "s3", log: replyLog() }])).not.toEqual([]);
  });

  it("the chaos model answers by the request's content, whatever the order", () => {
    const request = (system: string, ...messages: { role: string; content: string }[]) => ({
      body: { messages: [{ role: "system", content: system }, ...messages] },
    });
    const ask = request("x [chaos:confirm]", { role: "user", content: "Task" });
    expect(chaosModel(ask)).toEqual(chaosModel(ask));
    expect(chaosModel(ask)).toMatchObject({ toolCalls: [{ name: "artifact_write" }] });
    expect(chaosModel(request("[chaos:experiment]", { role: "user", content: "case 1" }))).toMatchObject({
      text: echoAnswer("case 1"),
    });
    expect(chaosModel(request("[chaos:coordinator]", { role: "user", content: "go" }))).toMatchObject({
      toolCalls: [{ name: "delegate_to_helper", arguments: { task: "Subtask of go" } }],
    });
  });
});

describe("crash trials (seeded)", { timeout: 300_000 }, () => {
  it("everything started completes exactly once while the worker, then a ROLE=all process, is killed with SIGKILL", async () => {
    const random = seededRandom(20261125);
    const { t, fake } = world;
    fake.respondWith(chaosModel);
    // The second trial kills a process that also serves an API (always on this port): its ingestion claims the
    // follow-ups' turns.
    const port = await freePort();
    const killed = [
      { startWorker: () => world.startWorker({ WORKER_LEASE_MS: "2000" }) },
      {
        killedApiUrl: `http://127.0.0.1:${port}`,
        startWorker: () =>
          world.startWorker({ WORKER_LEASE_MS: "2000", ROLE: "all", PORT: String(port), HOST: "127.0.0.1" }),
      },
    ];
    const sizes = {
      toolTurns: 2,
      confirmations: 1,
      delegations: 1,
      manualRuns: 2,
      scheduledFirings: 1,
      experimentCases: 3,
      experimentKinds: ["model", "agent"] as const,
      followUps: 2,
    };
    for (const target of killed) {
      const chaos = {
        apiUrl: t.url,
        projectId: t.tenant.projectId,
        apiKey: t.tenant.key,
        fastForwardSchedule: scheduleFastForward(t.platform.ctx.db.pool),
        ...target,
      };
      const result = await runCrashTrial(
        chaos,
        random,
        { sizes: { ...sizes, experimentKinds: [...sizes.experimentKinds] }, kills: 2, killWindowMs: 1200 },
        120_000,
      );
      expect(result.failures).toEqual([]);
      expect(Object.fromEntries(result.scenarios.map((s) => [s.name, s.units]))).toEqual({
        tool: 2,
        confirm: 1,
        delegate: 1,
        automation: 3,
        experiment: 6,
        "follow-up": 4,
      });
    }
  });
});
