import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
const agent = await platform.agents.create({
  name: "Careful writer",
  model: "builtin/script",
  tools: ["artifact_write"],
  toolPermissions: { artifact_write: "always_ask" },
});
const session = await platform.sessions.create({ agent: agent.id });
let ack = await platform.sessions.send(
  session.id,
  'Write the report\n/call artifact_write {"name": "report.md", "content": "# Report"}\n/say The report is saved',
);

// A tool with policy `always_ask` stops the turn with `requires_action` until every pending use is answered.
for (;;) {
  const idle = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events.at(-1)?.seq });
  console.log("turn stopped:", idle.stopReason); // requires_action, then end_turn
  if (idle.stopReason !== "requires_action") break;
  for (const action of idle.pendingActions ?? []) {
    if (action.kind !== "confirmation") continue;
    const allowed = action.name === "artifact_write";
    ack = allowed
      ? await platform.sessions.confirmToolUse(session.id, action.toolUseId, "allow")
      : await platform.sessions.confirmToolUse(session.id, action.toolUseId, "deny", { denyMessage: "Not now" });
  }
}
const artifacts = await platform.artifacts.list(session.id);
console.log(artifacts.data.map((artifact) => artifact.name)); // [ 'report.md' ]
