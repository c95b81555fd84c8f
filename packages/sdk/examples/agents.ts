import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();

const agent = await platform.agents.create({
  name: "Support",
  model: "builtin/echo",
  system: "You answer support questions.",
  tools: ["artifact_write"],
});
// Writes carry the version you expect (409 `agent.version_conflict` otherwise); a change publishes the next one.
const v2 = await platform.agents.update(agent.id, { version: agent.version, system: "You answer briefly." });
const v1 = await platform.agents.get(agent.id, { version: 1 });
const history = await platform.agents.listVersions(agent.id);
console.log(v2.version, v1.system, history.data.length);

// Publish version 1's configuration again, as version 3.
const restored = await platform.agents.restore(agent.id, 1, { version: v2.version });
const copy = await platform.agents.duplicate(agent.id, { name: "Support (copy)" });
await platform.agents.archive(copy.id);
console.log(restored.version);
