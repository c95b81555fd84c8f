// Scenario 5: experiments over a dataset, one with a model task and one with an agent task (each case a real session),
// scored by exact match against the chaos model's deterministic answer. Killed mid-batch, every case must still be
// recorded and scored exactly once, and the totals must count each case once.
import { checkReplyTurn } from "../log-checks.js";
import { echoAnswer, marker } from "../model-router.js";
import type { Scenario } from "../scenario.js";
import { api, type Entry, listAll, pollUntil, settledLog } from "../world.js";

export type TaskKind = "model" | "agent";

export interface ExperimentRecord {
  id: string;
  status: string;
  caseCount: number;
  progress: { done: number; errored: number; total: number };
  totals: { cases: number; completed: number; errored: number; passRate: number | null } | null;
}

export interface CaseResult {
  position: number;
  status: string;
  input: string;
  output: string | null;
  scores: { type: string; passed: boolean }[];
  sessionId: string | null;
}

/**
 * What is wrong with a finished experiment of `cases` cases whose every case should pass: completed, progress and
 * totals counting each case once, exactly one result per position, each scored once and passing. For an agent task,
 * each result names a session of its own, and `sessions` (those listed with the experiment's metadata) are exactly
 * those, each answering its case once.
 */
export function checkExperiment(
  experiment: ExperimentRecord,
  results: readonly CaseResult[],
  cases: number,
  sessions?: readonly { id: string; log: readonly Entry[] }[],
): string[] {
  const label = experiment.id;
  const problems: string[] = [];
  if (experiment.status !== "completed") problems.push(`${label}: ${experiment.status}`);
  const { done, errored, total } = experiment.progress;
  if (done !== cases || errored !== 0 || total !== cases || experiment.caseCount !== cases) {
    problems.push(`${label}: progress ${done}/${total} (${errored} errored), expected ${cases}/${cases}`);
  }
  const t = experiment.totals;
  if (!t || t.cases !== cases || t.completed !== cases || t.errored !== 0 || t.passRate !== 1) {
    problems.push(`${label}: totals ${JSON.stringify(t)}`);
  }
  if (results.length !== cases) problems.push(`${label}: ${results.length} results for ${cases} cases`);
  for (let position = 1; position <= cases; position++) {
    const n = results.filter((r) => r.position === position).length;
    if (n !== 1) problems.push(`${label}: case ${position} has ${n} results`);
  }
  for (const r of results) {
    if (r.status !== "completed") problems.push(`${label}: case ${r.position} is ${r.status}`);
    if (r.scores.length !== 1 || !r.scores[0]?.passed) {
      problems.push(`${label}: case ${r.position} scored ${JSON.stringify(r.scores)} (output ${r.output})`);
    }
  }
  if (sessions) {
    const ids = results.map((r) => r.sessionId);
    if (ids.some((id) => !id) || new Set(ids).size !== ids.length) {
      problems.push(`${label}: the cases do not each have a session of their own`);
    }
    if (sessions.length !== cases) problems.push(`${label}: ${sessions.length} case sessions for ${cases} cases`);
    for (const s of sessions) {
      if (!ids.includes(s.id)) problems.push(`${label}: session ${s.id} belongs to no result`);
      problems.push(...checkReplyTurn(`${label} session ${s.id}`, s.log));
    }
  }
  return problems;
}

type Handles = { experiments: { id: string; kind: TaskKind }[]; cases: number };

export function experimentRuns(sizes: { cases: number; kinds: TaskKind[] }): Scenario<Handles> {
  return {
    name: "experiment",
    unit: "cases",
    async start(world) {
      const inputs = Array.from({ length: sizes.cases }, (_, i) => `case ${i + 1}`);
      const dataset = await api<{ id: string }>(world, "POST", "/datasets", {
        name: `chaos-${Date.now()}`,
        cases: inputs.map((input) => ({ input, expected: echoAnswer(input) })),
      });
      const experiments = [];
      for (const kind of sizes.kinds) {
        const task =
          kind === "model"
            ? { type: "model", model: "openai-compatible/fake-model", system: `Answer. ${marker("experiment")}` }
            : {
                type: "agent",
                agentId: (
                  await api<{ id: string }>(world, "POST", "/agents", {
                    name: "Chaos experiment agent",
                    model: "openai-compatible/fake-model",
                    system: `Answer. ${marker("experiment")}`,
                  })
                ).id,
              };
        const created = await api<{ id: string }>(world, "POST", "/experiments", {
          datasetId: dataset.id,
          name: `chaos ${kind}`,
          task,
          scorers: [{ type: "exact_match", trim: true }],
          concurrency: 2,
        });
        experiments.push({ id: created.id, kind });
      }
      return { experiments, cases: sizes.cases };
    },
    async check(world, handles, plan) {
      const failures: string[] = [];
      for (const { id, kind } of handles.experiments) {
        const ended = await pollUntil(plan.deadline, async () => {
          const e = await api<ExperimentRecord>(world, "GET", `/experiments/${id}`);
          return e.status === "completed" || e.status === "failed" ? e : undefined;
        });
        if (!ended) {
          const e = await api<ExperimentRecord>(world, "GET", `/experiments/${id}`);
          failures.push(`${id}: still ${e.status} (${e.progress.done}/${e.progress.total}) at the deadline`);
          continue;
        }
        const results = await listAll<CaseResult>(world, `/experiments/${id}/results`);
        let sessions: { id: string; log: Entry[] }[] | undefined;
        if (kind === "agent") {
          sessions = [];
          for (const s of await listAll<{ id: string }>(world, `/sessions?metadata[experimentId]=${id}`)) {
            const log = await settledLog(world, s.id, plan.deadline);
            if (typeof log === "string") failures.push(log);
            else sessions.push({ id: s.id, log });
          }
        }
        failures.push(...checkExperiment(ended, results, handles.cases, sessions));
      }
      return { units: handles.experiments.length * handles.cases, failures };
    },
  };
}
