import { formatJson } from "../../lib/format.js";
import type { LiveReply } from "../live-reply.js";

/**
 * The reply the model is writing, from live deltas: plain text as it grows (parsed as Markdown once its entry
 * arrives), the reasoning where the provider streams it, and tool calls as their input forms.
 */
export function LiveReplyEntry({ reply }: { reply: LiveReply }) {
  return (
    <article className="entry message agent live" aria-label="reply being written" aria-busy="true">
      <header>
        <strong>Agent</strong> <span className="meta">writing…</span>
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
