import { formatJson } from "../../lib/format.js";
import type { LiveReply } from "../live-reply.js";

/**
 * The reply the model is writing, from live deltas: plain text as it grows (parsed as Markdown once its entry
 * arrives), the reasoning where the provider streams it, and tool calls as their input forms.
 */
export function LiveReplyEntry({ reply, provisional = false }: { reply: LiveReply; provisional?: boolean }) {
  if (reply.withdrawn) {
    return (
      <article className="entry message agent live withdrawn" aria-label="withdrawn reply">
        <header>
          <strong>Agent</strong> <span className="badge failed">reply withdrawn</span>
        </header>
        <p className="muted small">
          {reply.withdrawn === "guardrail_blocked"
            ? "An output guardrail blocked this reply: the text shown while it was written is taken back and will not be written."
            : "An output guardrail redacted this reply: the text shown while it was written is taken back; the redacted reply follows."}
        </p>
      </article>
    );
  }
  return (
    <article className="entry message agent live" aria-label="reply being written" aria-busy="true">
      <header>
        <strong>Agent</strong> <span className="meta">writing…</span>
        {provisional && (
          <span className="badge pending" title="The agent has output guardrails: this text may be taken back">
            provisional until the output guardrails have checked it
          </span>
        )}
      </header>
      {reply.reasoning && (
        <p className="meta">
          Thinking: {reply.reasoning.length > 400 ? `…${reply.reasoning.slice(-400)}` : reply.reasoning}
        </p>
      )}
      {reply.text && (
        <div className="markdown live-text">
          {reply.text}
          <span className="cursor" aria-hidden="true" />
        </div>
      )}
      {reply.tools.map((tool) => (
        <div key={tool.id} className="small">
          Calling <strong>{tool.name}</strong>:{" "}
          <code>{tool.input.length > 300 ? `${tool.input.slice(0, 300)}…` : formatJson(tool.input)}</code>
        </div>
      ))}
    </article>
  );
}
