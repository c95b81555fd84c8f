import type { ReactNode } from "react";
import { Markdown } from "../../components/markdown.js";
import { formatTime } from "../../lib/format.js";
import type { TimelineRow } from "../timeline-rows.js";
import { GuardrailBadges } from "./guardrail-badges.js";

/** A user's or the agent's message, as Markdown (a person's line breaks kept), with the row's actions. */
export function MessageEntry({
  row,
  actions,
}: {
  row: Extract<TimelineRow, { kind: "message" }>;
  actions?: ReactNode;
}) {
  const cutShort = "cutShort" in row.entry && row.entry.cutShort === true;
  return (
    <article className={`entry message ${row.role}`} aria-label={`${row.role} message`}>
      <header>
        <strong>{row.role === "user" ? "User" : "Agent"}</strong>{" "}
        <time dateTime={row.entry.createdAt}>{formatTime(row.entry.createdAt)}</time>
        <span className="meta">#{row.entry.seq}</span>
        {cutShort && <span className="badge">cut short by an interrupt</span>}
        <GuardrailBadges decisions={row.guardrails} />
      </header>
      <Markdown text={row.text} breaks={row.role === "user"} />
      {actions && <div className="actions-row">{actions}</div>}
    </article>
  );
}
