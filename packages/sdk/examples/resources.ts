import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
const context = await platform.context();
console.log(context.project.id, context.apiKey.role);

const agent = await platform.agents.create({ name: "Nightly", model: "builtin/echo" });

// Automations: fire an agent on a schedule.
const automation = await platform.automations.create({
  name: "Nightly report",
  agentId: agent.id,
  prompt: "Summarise yesterday",
  trigger: { type: "schedule", cron: "0 6 * * *", timezone: "Europe/Paris" },
});
await platform.automations.run(automation.id);
for await (const run of platform.automations.listRuns(automation.id)) console.log(run.status);

// Skills (workspace-wide), experiments and supporting resources follow the same pattern.
const skill = await platform.skills.create({
  files: [{ path: "SKILL.md", content: "---\nname: greeting\ndescription: Greets people\n---\nSay hello." }],
});
const environments = await platform.environments.list();
const dataset = await platform.datasets.create({ name: "Smoke questions" });
await platform.datasets.appendCases(dataset.id, { cases: [{ input: "2 + 2?", expected: "4" }] });
const experiment = await platform.experiments.create({
  name: "Smoke",
  datasetId: dataset.id,
  task: { type: "agent", agentId: agent.id },
  scorers: [{ type: "exact_match" }],
});
console.log(skill.id, environments.data.length, experiment.id);
