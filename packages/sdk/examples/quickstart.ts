import { AgentPlatform } from "@agent-platform/sdk";

// AGENT_PLATFORM_API_KEY (and AGENT_PLATFORM_BASE_URL, default http://127.0.0.1:3000) come from the environment.
const platform = new AgentPlatform();

const agent = await platform.agents.create({ name: "Echo", model: "builtin/echo" });
const session = await platform.sessions.create({ agent: agent.id, title: "First session" });

const ack = await platform.sessions.send(session.id, "Hello, agent!");
const idle = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]?.seq, timeout: 60_000 });
console.log("turn ended:", idle.stopReason);

for await (const event of platform.sessions.listEvents(session.id)) {
  if (event.type === "agent.message") console.log("agent:", event.content.map((part) => part.text).join("\n"));
}
