import type { AgentThinkingEvent } from "@agent-platform/sdk";
import { useState } from "react";
import { LongText } from "../../components/long-text.js";
import type { EntryProps } from "./entry-props.js";

/** The model's thinking: folded to its first line until opened (it is long and not addressed to anyone). */
export function ThinkingEntry({ entry }: EntryProps<AgentThinkingEvent>) {
  const [open, setOpen] = useState(false);
  const firstLine = entry.text.split("\n", 1)[0] ?? "";
  return (
    <article className="entry thinking" aria-label="agent thinking">
      <header>
        <button type="button" className="toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "▾" : "▸"} Thinking
        </button>
        {!open && <span className="meta">{entry.text ? firstLine.slice(0, 140) : "(redacted by the provider)"}</span>}
      </header>
      {open && (entry.text ? <LongText text={entry.text} /> : <p className="meta">Redacted by the provider.</p>)}
    </article>
  );
}
