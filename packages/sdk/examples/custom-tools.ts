import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();
const agent = await platform.agents.create({
  name: "Shop assistant",
  // `builtin/script` (offline) follows the `/call`, `/say` directives of the message; a real model decides itself.
  model: "builtin/script",
  tools: [
    {
      type: "custom",
      name: "lookup_order",
      description: "Looks an order up in the shop's database",
      inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
    },
  ],
});
const session = await platform.sessions.create({ agent: agent.id });
await platform.sessions.send(session.id, 'Where is order 42?\n/call lookup_order {"orderId": "42"}');

// Your backend runs custom tools: the turn waits (`requires_action`) for `user.custom_tool_result`.
const turnEnded = (e: { type: string; stopReason?: string }) =>
  e.type === "session.status_idle" && e.stopReason !== "requires_action";
for await (const event of platform.sessions.follow(session.id, { until: turnEnded })) {
  if (event.type === "agent.message") console.log("agent:", event.content[0]?.text); // agent: Order 42 shipped yesterday
  if (event.type !== "agent.custom_tool_use") continue;
  const { orderId } = event.input as { orderId: string };
  try {
    await platform.sessions.answerCustomTool(session.id, event.id, `Order ${orderId} shipped yesterday`);
  } catch (error) {
    await platform.sessions.answerCustomTool(session.id, event.id, String(error), { isError: true });
  }
}
