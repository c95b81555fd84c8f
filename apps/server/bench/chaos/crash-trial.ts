// One crash trial: several scenarios (tool turns, confirmations, delegations, automation firings, experiments) set
// going at once, run by a worker process that is killed with SIGKILL at random moments (during a model call, a tool
// call, between steps, during a commit) and started again — or, as a database-restart trial, while the database is
// stopped and started again under every process. Afterwards every scenario checks that what it started
// completed exactly once. Shared by the seeded test and `pnpm chaos`.
import type { ChildProcess } from "node:child_process";
import type { AnyScenario, TrialPlan } from "./scenario.js";
import { automationFirings } from "./scenarios/automations.js";
import { confirmationTurns } from "./scenarios/confirmation.js";
import { delegations } from "./scenarios/delegation.js";
import { experimentRuns, type TaskKind } from "./scenarios/experiments.js";
import { followUps } from "./scenarios/follow-ups.js";
import { toolTurns } from "./scenarios/tool-turns.js";
import type { ChaosWorld } from "./world.js";

export type { ChaosWorld } from "./world.js";

export interface TrialSizes {
  toolTurns: number;
  confirmations: number;
  delegations: number;
  manualRuns: number;
  scheduledFirings: number;
  experimentCases: number;
  experimentKinds: TaskKind[];
  /** Sessions that get a second message once their first turn ended (to the killed process's API when it has one). */
  followUps: number;
}

export interface TrialOptions {
  sizes: TrialSizes;
  /** Faults injected during the trial. */
  kills: number;
  /** Each fault lands after a random pause of at most this many milliseconds. */
  killWindowMs: number;
  /**
   * What a fault is: the worker process killed with SIGKILL and started again (the default), or the database restarted
   * (`world.restartDatabase`: down for a random time within `outageMs`, every process left running).
   */
  fault?: { kind: "kill" } | { kind: "restart-database"; outageMs: readonly [number, number] };
}

export interface ScenarioResult {
  name: string;
  unit: string;
  units: number;
  failures: string[];
}

export interface TrialResult {
  kills: number;
  /** With database restarts: milliseconds from the database's last return until every scenario had checked its work. */
  settledAfterReturnMs?: number;
  scenarios: ScenarioResult[];
  failures: string[];
  worker: ChildProcess;
}

/** A small deterministic PRNG (mulberry32): a seed replays a trial's kill schedule and its scenarios' choices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function scenariosFor(sizes: TrialSizes): AnyScenario[] {
  return [
    toolTurns(sizes.toolTurns),
    confirmationTurns(sizes.confirmations),
    delegations(sizes.delegations),
    automationFirings({ manualRuns: sizes.manualRuns, scheduled: sizes.scheduledFirings }),
    experimentRuns({ cases: sizes.experimentCases, kinds: sizes.experimentKinds }),
    followUps(sizes.followUps),
  ];
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/**
 * Runs one trial with a worker of its own (started here, killed and restarted `kills` times, left running at the end
 * for the caller to stop through the returned process). Resolves once every scenario has checked its work, waiting
 * for it at most `timeoutMs` (a killed process's jobs wait for their leases, `WORKER_LEASE_MS`, to expire).
 */
export async function runCrashTrial(
  world: ChaosWorld,
  random: () => number,
  options: TrialOptions,
  timeoutMs = 150_000,
): Promise<TrialResult> {
  const scenarios = scenariosFor(options.sizes);
  // Each scenario draws from a stream of its own: their draws interleave differently from run to run.
  const plans: TrialPlan[] = scenarios.map(() => ({
    random: seededRandom(Math.floor(random() * 2 ** 32)),
    killWindowMs: options.killWindowMs,
    deadline: 0,
  }));
  const pauses = Array.from({ length: options.kills }, () => Math.floor(random() * options.killWindowMs));
  const fault = options.fault ?? { kind: "kill" };
  const outages =
    fault.kind === "restart-database"
      ? pauses.map(() => fault.outageMs[0] + Math.floor(random() * (fault.outageMs[1] - fault.outageMs[0])))
      : [];
  let lastReturn: number | undefined;
  let worker = await world.startWorker();
  const handles = await Promise.all(scenarios.map((s, i) => s.start(world, plans[i]!)));
  const deadline = Date.now() + timeoutMs;
  for (const plan of plans) plan.deadline = deadline;
  const driving = Promise.allSettled(scenarios.map((s, i) => s.drive?.(world, handles[i], plans[i]!)));
  for (const [i, pause] of pauses.entries()) {
    await new Promise((r) => setTimeout(r, pause));
    if (fault.kind === "restart-database") {
      await world.restartDatabase!(outages[i]!);
      lastReturn = Date.now();
    } else {
      await killHard(worker);
      worker = await world.startWorker();
    }
  }
  const driven = await driving;
  const results: ScenarioResult[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const outcome = driven[i]!;
    const found = outcome.status === "rejected" ? [`while driving: ${String(outcome.reason)}`] : [];
    let units = 0;
    try {
      const checked = await scenario.check(world, handles[i], plans[i]!);
      units = checked.units;
      found.push(...checked.failures);
    } catch (error) {
      found.push(`while checking: ${String(error)}`);
    }
    results.push({ name: scenario.name, unit: scenario.unit, units, failures: found });
  }
  const failures = results.flatMap((r) => r.failures.map((f) => `${r.name}: ${f}`));
  return {
    kills: options.kills,
    ...(lastReturn !== undefined ? { settledAfterReturnMs: Date.now() - lastReturn } : {}),
    scenarios: results,
    failures,
    worker,
  };
}
