import type { ReactNode } from "react";
import { Link } from "react-router";
import { LongText } from "../../components/long-text.js";
import { formatDuration, formatJson } from "../../lib/format.js";
import type { TimelineRow } from "../timeline-rows.js";
import { GuardrailBadges } from "./guardrail-badges.js";
import { retrievalView } from "./retrieval-result.js";

type ToolRowData = Extract<TimelineRow, { kind: "tool" }>;

function toolLabel(row: ToolRowData): { kind: string; name: string } {
  const use = row.use;
  if (use.type === "agent.mcp_tool_use") return { kind: "MCP tool", name: `${use.serverName} · ${use.name}` };
  if (use.type === "agent.custom_tool_use") return { kind: "Custom tool", name: use.name };
  if (use.name.startsWith("delegate_to_")) return { kind: "Delegation", name: use.name.slice("delegate_to_".length) };
  return { kind: "Tool", name: use.name };
}

/** A result's parts as text: binary parts (images, audio) of MCP results are named, they are artifacts of the session. */
function resultText(content: NonNullable<ToolRowData["result"]>["content"]): string {
  return content
    .map((part) =>
      part.type === "text"
        ? (part.text ?? "")
        : `[${part.type} ${part.mimeType ?? ""}: artifact ${part.artifactId ?? ""}]`,
    )
    .join("\n");
}

/** A tool use with its confirmation, its result (or error) and how long it took, collapsible. */
export function ToolEntry({
  row,
  open,
  onToggle,
  actions,
}: {
  row: ToolRowData;
  open: boolean;
  onToggle(): void;
  actions?: ReactNode;
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
  const took = row.result ? Date.parse(row.result.createdAt) - Date.parse(row.use.createdAt) : undefined;
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
        {took !== undefined && <span className="meta">{formatDuration(took)}</span>}
        <GuardrailBadges decisions={row.guardrails} />
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
          {/* The reason is the result's text once the result is in: shown once. */}
          {row.confirmation?.denyMessage && !row.result && (
            <p className="muted">Denied: {row.confirmation.denyMessage}</p>
          )}
          {row.result && <ResultView row={row} result={row.result} />}
        </div>
      )}
    </article>
  );
}

/** A result as text, or — for knowledge and memory searches — the passages or entries it retrieved, readably. */
function ResultView({ row, result }: { row: ToolRowData; result: NonNullable<ToolRowData["result"]> }) {
  const text = resultText(result.content);
  const readable = !result.isError && row.use.type === "agent.tool_use" ? retrievalView(row.use.name, text) : undefined;
  const heading = result.isError ? (row.confirmation?.result === "deny" ? "Denied" : "Error") : "Result";
  if (!readable) {
    return (
      <>
        <h4>{heading}</h4>
        <LongText text={text} />
      </>
    );
  }
  return (
    <>
      <h4>{heading}</h4>
      {readable}
      <details>
        <summary className="small">As the model received it (JSON)</summary>
        <LongText text={text} />
      </details>
    </>
  );
}
