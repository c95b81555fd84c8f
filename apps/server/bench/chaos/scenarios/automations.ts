// Scenario 4: automation firings. Manual runs are requested while the worker is being killed, and scheduled firings
// are brought forward with the world's clock fast-forward (one per automation: the schedule fires once a year, so
// nothing fires by itself, and `to` — this year's schedule time, in the past — is the firing's identity). Every
// request and every fast-forward must yield exactly one run, whose session's turn completes once.
import { checkReplyTurn } from "../log-checks.js";
import { marker } from "../model-router.js";
import type { Scenario } from "../scenario.js";
import { api, type Entry, listAll, pollUntil, settledLog, sleep } from "../world.js";

export interface Run {
  id: string;
  triggerKind: "manual" | "schedule";
  scheduledFor?: string | null;
  status: string;
  sessionId: string | null;
}

export interface RunSession {
  id: string;
  runId: string | undefined;
  log: readonly Entry[];
}

/** How long past the trial's deadline a missing run is still looked for, to tell a late firing from a lost one. */
const LATE_GRACE_MS = 120_000;

/** Once a year, at 00:00 UTC on January 1st: the fast-forward moves it to this year's time, which is past. */
const YEARLY = { type: "schedule", cron: "0 0 1 1 *", timezone: "UTC" } as const;
export const thisYearsFiring = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), 0, 1));

/**
 * What is wrong with an automation's runs after a trial: `expected.manual` lists the run ids the manual requests
 * returned (each must be recorded exactly once, and no other), `expected.scheduledFor` the one schedule time a
 * fast-forward fired (exactly one schedule run for it, and no other). Every run started one session of its own
 * (`sessions`: those listed with the automation's metadata), whose turn answered once.
 */
export function checkAutomationRuns(
  label: string,
  runs: readonly Run[],
  sessions: readonly RunSession[],
  expected: { manual?: readonly string[]; scheduledFor?: string },
): string[] {
  const problems: string[] = [];
  const manual = runs.filter((r) => r.triggerKind === "manual");
  const scheduled = runs.filter((r) => r.triggerKind === "schedule");
  for (const id of expected.manual ?? []) {
    const n = manual.filter((r) => r.id === id).length;
    if (n !== 1) problems.push(`${label}: manual run ${id} recorded ${n} times`);
  }
  const unexpected = manual.filter((r) => !(expected.manual ?? []).includes(r.id));
  if (unexpected.length > 0) problems.push(`${label}: ${unexpected.length} manual run(s) nobody requested`);
  const wanted = expected.scheduledFor === undefined ? 0 : 1;
  const forIt = scheduled.filter((r) => r.scheduledFor === expected.scheduledFor).length;
  if (forIt !== wanted) problems.push(`${label}: ${forIt} schedule run(s) for ${expected.scheduledFor}, expected 1`);
  if (scheduled.length !== wanted) problems.push(`${label}: ${scheduled.length} schedule run(s), expected ${wanted}`);
  for (const run of runs) {
    if (run.status !== "started" || !run.sessionId) problems.push(`${label}: run ${run.id} is ${run.status}`);
  }
  const sessionIds = runs.flatMap((r) => (r.sessionId ? [r.sessionId] : []));
  if (new Set(sessionIds).size !== sessionIds.length) problems.push(`${label}: two runs share a session`);
  if (sessions.length !== sessionIds.length) {
    problems.push(`${label}: ${sessions.length} session(s) for ${sessionIds.length} started run(s)`);
  }
  for (const session of sessions) {
    const run = runs.find((r) => r.sessionId === session.id);
    if (!run || run.id !== session.runId) problems.push(`${label}: session ${session.id} belongs to no run`);
    problems.push(...checkReplyTurn(`${label} session ${session.id}`, session.log));
  }
  return problems;
}

type Handles = {
  manualAutomationId: string;
  manualRuns: number;
  requested: string[];
  scheduled: { automationId: string; to: Date; forwarded: boolean }[];
};

export function automationFirings(sizes: { manualRuns: number; scheduled: number }): Scenario<Handles> {
  return {
    name: "automation",
    unit: "firings",
    async start(world) {
      const agent = await api<{ id: string }>(world, "POST", "/agents", {
        name: "Chaos automation agent",
        model: "openai-compatible/fake-model",
        system: `You run on a schedule. ${marker("automation")}`,
      });
      const create = (name: string, trigger: unknown) =>
        api<{ id: string }>(world, "POST", "/automations", {
          name,
          agentId: agent.id,
          prompt: "Do the chore.",
          trigger,
        });
      const manual = await create("Chaos manual", { type: "manual" });
      const scheduled = [];
      for (let i = 0; i < sizes.scheduled; i++) {
        const automation = await create(`Chaos schedule ${i}`, YEARLY);
        scheduled.push({ automationId: automation.id, to: thisYearsFiring(), forwarded: false });
      }
      return { manualAutomationId: manual.id, manualRuns: sizes.manualRuns, requested: [], scheduled };
    },
    async drive(world, handles, plan) {
      const actions = [
        ...Array.from({ length: handles.manualRuns }, () => async () => {
          const { runId } = await api<{ runId: string }>(
            world,
            "POST",
            `/automations/${handles.manualAutomationId}/run`,
          );
          handles.requested.push(runId);
        }),
        ...handles.scheduled.map((s) => async () => {
          await world.fastForwardSchedule(s.automationId, s.to);
          s.forwarded = true;
        }),
      ];
      await Promise.all(
        actions.map(async (action) => {
          await sleep(Math.floor(plan.random() * plan.killWindowMs));
          await action();
        }),
      );
    },
    async check(world, handles, plan) {
      const failures: string[] = [];
      const verify = async (automationId: string, expected: { manual?: string[]; scheduledFor?: string }) => {
        const count = (expected.manual?.length ?? 0) + (expected.scheduledFor ? 1 : 0);
        const enough = async () => {
          const runs = await listAll<Run>(world, `/automations/${automationId}/runs`);
          return runs.length >= count ? runs : undefined;
        };
        const runs = await pollUntil(plan.deadline, enough);
        if (!runs) {
          // Late or lost? A firing whose job was killed several times waits out its lease each time: keep looking
          // for a while, so that a failure says which it was.
          const lookedFrom = Date.now();
          const late = await pollUntil(plan.deadline + LATE_GRACE_MS, enough);
          failures.push(
            late
              ? `${automationId}: ${count} run(s) only ${Math.round((Date.now() - plan.deadline) / 1000)} s after the deadline (late, not lost)`
              : `${automationId}: fewer than ${count} run(s) by the deadline, nor ${Math.round((Date.now() - lookedFrom) / 1000)} s later (lost)`,
          );
        }
        const listed = await listAll<{ id: string; metadata: Record<string, string> }>(
          world,
          `/sessions?metadata[automationId]=${automationId}`,
        );
        const sessions: RunSession[] = [];
        for (const s of listed) {
          const log = await settledLog(world, s.id, plan.deadline);
          if (typeof log === "string") failures.push(log);
          else sessions.push({ id: s.id, runId: s.metadata.automationRunId, log });
        }
        // Read again once every session has ended: a run recorded twice would show by now.
        const final = await listAll<Run>(world, `/automations/${automationId}/runs`);
        failures.push(...checkAutomationRuns(automationId, final, sessions, expected));
        return final.length;
      };
      let units = await verify(handles.manualAutomationId, { manual: handles.requested });
      if (handles.requested.length !== handles.manualRuns) failures.push("a manual run request was not sent");
      for (const s of handles.scheduled) {
        if (!s.forwarded) failures.push(`${s.automationId}: the schedule was not fast-forwarded`);
        units += await verify(s.automationId, { scheduledFor: s.to.toISOString() });
      }
      return { units, failures };
    },
  };
}
