import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
const agent = await platform.agents.create({ name: "JSON answers", model: "builtin/echo" });
// Every final answer must be valid JSON; a failing one is sent back once, with the scorers' feedback.
const session = await platform.sessions.create({
  agent: agent.id,
  outcome: { scorers: [{ type: "json_valid" }], maxRevisions: 1 },
});

let ack = await platform.sessions.send(session.id, '{"answer": 42}');
await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events.at(-1)?.seq });
console.log((await platform.sessions.get(session.id)).outcome); // { state: 'passed', revisions: 0, maxRevisions: 1 }

ack = await platform.sessions.send(session.id, "forty-two");
await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events.at(-1)?.seq });
const log = await platform.sessions.listEvents(session.id, { afterSeq: ack.events.at(-1)?.seq });
for (const entry of log.data) {
  if (entry.type === "session.outcome_evaluation") console.log(entry.verdict, entry.revise, entry.feedback);
}
console.log((await platform.sessions.get(session.id)).outcome); // { state: 'failed', revisions: 1, maxRevisions: 1 }
