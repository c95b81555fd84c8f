import type { ReactNode } from "react";

/** What a newcomer does next: a sentence and the command or SDK call that does it. */
export function EmptyState({ title, children, snippet }: { title: string; children?: ReactNode; snippet: string }) {
  return (
    <section className="empty" aria-label={title}>
      <h2>{title}</h2>
      {children}
      <pre className="snippet">
        <code>{snippet}</code>
      </pre>
    </section>
  );
}

export function curlSnippet(method: string, path: string, body?: unknown): string {
  const lines = [`curl -X ${method} "${window.location.origin}${path}" \\`, '  -H "Authorization: Bearer $API_KEY"'];
  if (body !== undefined) {
    lines[1] += " \\";
    lines.push('  -H "Content-Type: application/json" \\', `  -d '${JSON.stringify(body)}'`);
  }
  return lines.join("\n");
}
