import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
// builtin/echo answers with the message as the model was sent it: here, without the card number.
const agent = await platform.agents.create({
  name: "Support",
  model: "builtin/echo",
  guardrails: [
    { stage: "input", check: { type: "pii", kinds: ["card_number", "email"] }, action: "redact" },
    { stage: "tool_result", check: { type: "prompt_injection" }, action: "flag" },
    { name: "no-secrets-out", stage: "output", check: { type: "secrets" }, action: "block" },
  ],
});
const session = await platform.sessions.create({ agent: agent.id });
const ack = await platform.sessions.send(session.id, "Refund 4111 1111 1111 1111 to jane@example.com");
const idle = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events.at(-1)?.seq });
console.log(idle.stopReason); // end_turn ("guardrail_blocked" when a block guardrail stopped the turn)

const log = await platform.sessions.listEvents(session.id);
for (const entry of log.data) {
  if (entry.type === "user.message") console.log(entry.content[0]?.text); // Refund [REDACTED:card_number] to [REDACTED:email]
  if (entry.type === "session.guardrail") console.log(entry.guardrail, entry.action, entry.spans); // offsets and kinds only
}

// A session may replace the agent's guardrails ([] = none).
await platform.sessions.create({ agent: agent.id, guardrails: [] });

// A reply streamed with deltas that an output guardrail blocks or redacts is withdrawn.
const reply = platform.sessions.streamReply(session.id, {
  onText: (delta) => console.log("…", delta),
  onWithdrawn: (withdrawn) => console.log(`[withdrawn: ${withdrawn.reason}]`),
});
await platform.sessions.send(session.id, "Thanks!");
console.log((await reply).idle.stopReason);
