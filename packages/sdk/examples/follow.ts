import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
const agent = await platform.agents.create({ name: "Follower", model: "builtin/echo" });
const session = await platform.sessions.create({ agent: agent.id });
const ack = await platform.sessions.send(session.id, "Tell me something");

// Server-Sent Events, resumed after dropped connections, 5xx and 429 answers without gaps or repeats.
const stop = new AbortController();
for await (const event of platform.sessions.follow(session.id, {
  afterSeq: ack.events[0]?.seq,
  signal: stop.signal,
  until: (e) => e.type === "session.status_idle",
})) {
  if (event.type === "agent.message") console.log(event.content[0]?.text);
  if (event.type === "session.error") console.error(event.error.code, event.error.message);
}
