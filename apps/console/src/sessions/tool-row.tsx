import { Link } from "react-router";
import { LongText } from "../components/long-text.js";
import { formatJson, textOf } from "../lib/format.js";
import type { TimelineRow } from "./timeline-rows.js";

type ToolRowData = Extract<TimelineRow, { kind: "tool" }>;

function toolLabel(row: ToolRowData): { kind: string; name: string } {
  const use = row.use;
  if (use.type === "agent.mcp_tool_use") return { kind: "MCP tool", name: `${use.serverName} · ${use.name}` };
  if (use.type === "agent.custom_tool_use") return { kind: "Custom tool", name: use.name };
  if (use.name.startsWith("delegate_to_")) return { kind: "Delegation", name: use.name.slice("delegate_to_".length) };
  return { kind: "Tool", name: use.name };
}

export function ToolRow({
  row,
  open,
  onToggle,
  actions,
}: {
  row: ToolRowData;
  open: boolean;
  onToggle(): void;
  actions?: React.ReactNode;
}) {
  const { kind, name } = toolLabel(row);
  const requiresConfirmation = "requiresConfirmation" in row.use && row.use.requiresConfirmation === true;
  const state = row.result
    ? row.result.isError
      ? "failed"
      : "done"
    : row.confirmation?.result === "deny"
      ? "denied"
      : "pending";
  const bodyId = `tool-${row.use.id}`;
  return (
    <article className={`entry tool tool-${state}`} aria-label={`${kind} ${name}`}>
      <header>
        <button type="button" className="toggle" aria-expanded={open} aria-controls={bodyId} onClick={onToggle}>
          {open ? "▾" : "▸"} {kind}: <strong>{name}</strong>
        </button>
        <span className={`badge ${state}`}>{state}</span>
        {requiresConfirmation && (
          <span className="badge">
            {row.confirmation ? `confirmation: ${row.confirmation.result}` : "needs confirmation"}
          </span>
        )}
        {row.childSessions.map((id) => (
          <Link key={id} to={`/sessions/${id}`} className="child-link">
            child session {id}
          </Link>
        ))}
      </header>
      {actions}
      {open && (
        <div id={bodyId} className="tool-body">
          <h4>Input</h4>
          <pre>{formatJson(row.use.input)}</pre>
          {row.confirmation?.denyMessage && <p className="muted">Denied: {row.confirmation.denyMessage}</p>}
          {row.result && (
            <>
              <h4>{row.result.isError ? "Error" : "Result"}</h4>
              <LongText text={textOf(row.result.content)} />
            </>
          )}
        </div>
      )}
    </article>
  );
}
