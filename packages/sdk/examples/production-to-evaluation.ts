import { AgentPlatform } from "@agent-platform/sdk";

// From production back to evaluation, offline: a session goes wrong, is forked with a fixed version, becomes a dataset
// case, and an experiment per version scores both with a trajectory scorer.
const platform = new AgentPlatform();

// Version 1 runs `builtin/echo`: it repeats the request instead of saving the report (it never calls tools).
const agent = await platform.agents.create({ name: "Reporter", model: "builtin/echo", tools: ["artifact_write"] });
const request = [
  "Save the weekly report",
  '/call artifact_write {"name": "report.md", "content": "# Weekly report"}',
  "/say The report is saved.",
].join("\n");
const production = await platform.sessions.create({ agent: agent.id, title: "Weekly report" });
const sent = await platform.sessions.send(production.id, request);
await platform.sessions.waitForIdle(production.id, { afterSeq: sent.events[0]?.seq, timeout: 60_000 });

// The fix: version 2 runs `builtin/script`, which follows the directives (calls the tool, then answers).
const fixed = await platform.agents.update(agent.id, { version: agent.version, model: "builtin/script" });

// Replay the conversation from the user's message with the fixed version: the fork's log is the source's up to
// `atSeq`, and its turn starts at once since that message is unanswered there.
const atSeq = sent.events[0]!.seq;
const fork = await platform.sessions.fork(production.id, { atSeq, agent: { id: agent.id, version: fixed.version } });
await platform.sessions.waitForIdle(fork.id, { afterSeq: atSeq, timeout: 60_000 });

// The fork's turn becomes a test case: its answer is `expected`; the trajectory the fix should follow is added.
const dataset = await platform.datasets.create({ name: "Reports regressions" });
const testCase = await platform.datasets.appendCaseFromSession(dataset.id, {
  sessionId: fork.id,
  seq: atSeq,
  expectedTools: [{ name: "artifact_write", arguments: { name: "report.md" } }],
});
console.log("case:", testCase.input.split("\n")[0], "→", testCase.expected);

// One experiment per version, scored on what the agent did (tools in order) and on its answer.
const scorers = [{ type: "trajectory" as const, mode: "in_order" as const }, { type: "exact_match" as const }];
const runs = [];
for (const version of [agent.version, fixed.version]) {
  const created = await platform.experiments.create({
    datasetId: dataset.id,
    name: `Reporter v${version}`,
    task: { type: "agent", agentId: agent.id, agentVersion: version },
    scorers,
  });
  runs.push(await finished(created.id));
}
const [before, after] = runs;
const comparison = await platform.experiments.compare(after!.id, { baseline: before!.id });
console.log("pass rate:", comparison.passRate, "improvements:", comparison.improvements);
if (comparison.improvements.length !== 1 || after!.totals?.passRate !== 1) {
  throw new Error(`expected the fixed version to pass the case: ${JSON.stringify(comparison)}`);
}

async function finished(id: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const experiment = await platform.experiments.get(id);
    if (experiment.status === "completed" || experiment.status === "failed") return experiment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`experiment ${id} did not finish`);
}
