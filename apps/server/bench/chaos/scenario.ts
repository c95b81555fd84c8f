// The shape of a crash-trial scenario: it starts its work, optionally acts while the worker is being killed, and
// then checks that everything it started completed exactly once.
import type { ChaosWorld } from "./world.js";

export interface TrialPlan {
  /** Decides this trial's random choices (kill times, when to request runs, ...): a seed replays them. */
  random: () => number;
  /** Kills land within this many milliseconds of the start (each after a random pause of at most this long). */
  killWindowMs: number;
  /** Epoch ms after which waiting stops and what has not ended counts as stuck. */
  deadline: number;
}

export interface Scenario<Handles> {
  name: string;
  /** What one unit of this scenario is called in the summary (turns, runs, cases...). */
  unit: string;
  /** Creates what the scenario needs and sets its work going. */
  start(world: ChaosWorld, plan: TrialPlan): Promise<Handles>;
  /** Acts alongside the kills (answers confirmations, requests runs...); resolves once its actions are done. */
  drive?(world: ChaosWorld, handles: Handles, plan: TrialPlan): Promise<void>;
  /** Waits until its work has ended (or the deadline passed) and says what is wrong; and how many units it checked. */
  check(world: ChaosWorld, handles: Handles, plan: TrialPlan): Promise<{ units: number; failures: string[] }>;
}

/** Any scenario, its handle type forgotten. */
// biome-ignore lint/suspicious/noExplicitAny: a list of scenarios with different handle types
export type AnyScenario = Scenario<any>;
