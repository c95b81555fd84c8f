import type { Agent, AgentUsageEvent, SessionCompactionEvent, SessionLogEvent } from "@agent-platform/sdk";
import { useMemo } from "react";
import { LongText } from "../components/long-text.js";
import { useBuiltinTools, useModels } from "../lib/catalogue.js";
import { formatNumber } from "../lib/format.js";

const CHARS_PER_TOKEN = 4;
const estimate = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

/**
 * What the model is sent, in the manner of Letta's context window view: the system prompt, the tools offered, the
 * summary that stands for the conversation before the last compaction, and how full the context window was at the
 * last call (the provider's count; the parts are estimated at about four characters a token).
 */
export function ContextPanel({ agent, entries }: { agent: Agent | undefined; entries: readonly SessionLogEvent[] }) {
  const models = useModels();
  const builtins = useBuiltinTools();
  const { usage, compaction, messages } = useMemo(() => {
    let usage: AgentUsageEvent | undefined;
    let compaction: SessionCompactionEvent | undefined;
    for (const entry of entries) {
      if (entry.type === "agent.usage") usage = entry;
      if (entry.type === "session.compaction") compaction = entry;
    }
    const from = compaction ? compaction.toSeq : 0;
    const messages = entries.filter(
      (e) =>
        e.seq > from && (e.type === "user.message" || e.type === "agent.message" || e.type.endsWith("tool_result")),
    ).length;
    return { usage, compaction, messages };
  }, [entries]);
  if (!agent) return <p className="loading">Loading the agent version…</p>;

  const modelId = usage?.model ?? (typeof agent.model === "string" ? agent.model : agent.model.id);
  const windowSize = models.data?.find((m) => m.id === modelId)?.contextWindow ?? null;
  const tools = toolList(agent, new Map((builtins.data ?? []).map((t) => [t.name as string, t.description])));
  const parts = [
    { label: "System prompt", tokens: estimate(agent.system ?? "") },
    { label: "Tool definitions", tokens: estimate(JSON.stringify(tools)) },
    { label: "Summary of earlier conversation", tokens: compaction ? estimate(compaction.summary) : 0 },
  ];
  const known = parts.reduce((n, p) => n + p.tokens, 0);
  if (usage)
    parts.push({ label: `Messages and tool results (${messages})`, tokens: Math.max(0, usage.inputTokens - known) });

  return (
    <section aria-labelledby="context-heading">
      <h2 id="context-heading">What the model is sent</h2>
      <p className="small">
        Model <code>{modelId}</code>
        {usage ? (
          <>
            {" "}
            · last call: {formatNumber(usage.inputTokens)} prompt tokens
            {windowSize
              ? ` of ${formatNumber(windowSize)} (${formatNumber((usage.inputTokens / windowSize) * 100, 1)} %)`
              : ""}
          </>
        ) : (
          " · no model call yet"
        )}
      </p>
      {usage && windowSize && (
        <meter min={0} max={windowSize} value={usage.inputTokens} aria-label="Context window used" />
      )}
      <table className="list small" aria-label="Context by part">
        <tbody>
          {parts.map((part) => (
            <tr key={part.label}>
              <td>{part.label}</td>
              <td>~{formatNumber(part.tokens)} tokens</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>System prompt (version {agent.version})</h3>
      {agent.system ? <LongText text={agent.system} /> : <p className="muted">None.</p>}
      <h3>Tools ({tools.length})</h3>
      {tools.length === 0 ? (
        <p className="muted">No tool: the model can only answer.</p>
      ) : (
        <ul className="small">
          {tools.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code>
              {tool.description ? ` — ${tool.description}` : ""}
            </li>
          ))}
        </ul>
      )}
      <h3>Summary in force</h3>
      {compaction ? (
        <>
          <p className="muted small">
            Stands for entries {compaction.fromSeq}–{compaction.toSeq}; the model is sent it and the entries after.
          </p>
          <LongText text={compaction.summary} />
        </>
      ) : (
        <p className="muted">None: the model is sent the whole conversation.</p>
      )}
    </section>
  );
}

function toolList(agent: Agent, builtins: Map<string, string>): { name: string; description: string }[] {
  const tools: { name: string; description: string }[] = [];
  for (const tool of agent.tools ?? []) {
    if (typeof tool === "string") tools.push({ name: tool, description: builtins.get(tool) ?? "" });
    else tools.push({ name: tool.name, description: `${tool.description} (custom, answered by your backend)` });
  }
  for (const server of agent.mcpServers ?? []) {
    tools.push({ name: `${server.name}__*`, description: `the tools MCP server ${server.name} lists at each turn` });
  }
  for (const entry of agent.multiagent?.roster ?? []) {
    tools.push({
      name: `delegate_to_${entry.role}`,
      description: `delegates to agent ${entry.agentId} (${entry.mode})`,
    });
  }
  if ((agent.skills ?? []).length > 0)
    tools.push({ name: "skill_read", description: "reads the agent's skills' files" });
  return tools;
}
