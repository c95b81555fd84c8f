import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
const agent = await platform.agents.create({ name: "Chat", model: "builtin/echo" });
const session = await platform.sessions.create({ agent: agent.id });

// Follow first, then send: the reply's text is shown as the model writes it (with a streaming provider; builtin
// models answer whole), and the promise resolves with the turn's final agent.message, which is authoritative.
const reply = platform.sessions.streamReply(session.id, {
  afterSeq: session.lastSeq,
  onText: (delta) => console.log("…", delta),
});
await platform.sessions.send(session.id, "Write me a haiku");
const { message, idle } = await reply;
console.log(idle.stopReason, message?.content[0]?.text);
