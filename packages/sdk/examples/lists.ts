import { AgentPlatform } from "@agent-platform/sdk";

const platform = new AgentPlatform();

// Awaited, a list is one page…
const page = await platform.agents.list({ status: "all", limit: 50 });
console.log(page.data.length, page.hasMore, page.nextCursor);

// …iterated, it is every item, pages fetched as needed.
for await (const agent of platform.agents.list({ status: "all" })) console.log(agent.id, agent.name);

// Page by page.
for await (const each of platform.sessions.list({ limit: 100 }).pages()) console.log(each.data.length);

// The session log pages by `afterSeq`/`nextAfterSeq` the same way; entries narrow on `type`.
const [session] = (await platform.sessions.list({ limit: 1 })).data;
if (session) {
  for await (const event of platform.sessions.listEvents(session.id, { afterSeq: 0 })) {
    switch (event.type) {
      case "agent.tool_use":
        console.log(event.seq, "tool", event.name, event.input);
        break;
      case "session.status_idle":
        console.log(event.seq, "idle", event.stopReason);
        break;
      default:
        // Newer servers may add entry types: keep a default branch.
        console.log(event.seq, event.type);
    }
  }
}
