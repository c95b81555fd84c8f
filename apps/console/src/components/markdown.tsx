import type { ReactElement } from "react";
import markdownToElements, { defaultUrlTransform, type Options } from "react-markdown";
import remarkBreaks from "remark-breaks";

/**
 * Model output and user text are untrusted: react-markdown builds React elements from the Markdown syntax tree and never
 * sets innerHTML. Raw HTML in the text is shown as the text it is (`htmlAsText`: `<script>` reads as `<script>`, not
 * silently dropped), `javascript:` and other unsafe URLs are removed (the link's words stay, marked as a removed link,
 * so nothing opens an empty tab), and images are shown as text (no request to a host the text chose; the CSP would
 * block it anyway).
 */
type MdNode = { type: string; value?: string; children?: MdNode[]; data?: Record<string, unknown> };

function htmlAsText() {
  const visit = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(visit);
  };
  return (tree: MdNode) => visit(tree);
}

const REDACTION = /\[REDACTED:[a-z0-9_]+\]/g;

/**
 * `[REDACTED:card_number]` — what a guardrail put in place of what it removed — is marked (`<mark>`), so that a redacted
 * message reads as such. The text itself is unchanged.
 */
function markRedactions() {
  const visit = (node: MdNode) => {
    if (!node.children) return;
    node.children = node.children.flatMap((child) => {
      if (child.type !== "text" || !child.value?.includes("[REDACTED:")) {
        visit(child);
        return [child];
      }
      const parts: MdNode[] = [];
      let at = 0;
      for (const match of child.value.matchAll(REDACTION)) {
        if (match.index > at) parts.push({ type: "text", value: child.value.slice(at, match.index) });
        parts.push({
          type: "redaction",
          data: { hName: "mark", hProperties: { className: ["redaction"], title: "Removed by a guardrail" } },
          children: [{ type: "text", value: match[0] }],
        });
        at = match.index + match[0].length;
      }
      if (at < child.value.length) parts.push({ type: "text", value: child.value.slice(at) });
      return parts;
    });
  };
  return (tree: MdNode) => visit(tree);
}

function options(breaks: boolean): Omit<Options, "children"> {
  return {
    remarkPlugins: breaks ? [htmlAsText, markRedactions, remarkBreaks] : [htmlAsText, markRedactions],
    skipHtml: true,
    urlTransform: defaultUrlTransform,
    components: {
      a: ({ href, children }) =>
        href ? (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow">
            {children}
          </a>
        ) : (
          <span className="link-removed" title="Link removed: its target was not a safe web address">
            {children}
          </span>
        ),
      img: ({ src, alt }) => <span className="image-ref">[image: {alt || String(src ?? "")}]</span>,
    },
  };
}

const PLAIN = options(false);
const WITH_BREAKS = options(true);

/**
 * Parsed texts, newest last: a virtualised timeline mounts a row again each time it scrolls back into view, and parsing
 * its Markdown again each time would cost a frame on a fast scroll. (react-markdown's synchronous `Markdown` is a plain
 * function without hooks, so its result can be kept and reused.)
 */
const parsed = new Map<string, ReactElement>();
const CACHE_ENTRIES = 2_000;

/** `breaks`: a line break in the text is a line break on screen (people's messages; models write Markdown). */
export function Markdown({ text, breaks = false }: { text: string; breaks?: boolean }) {
  const key = `${breaks ? "b" : "p"}${text}`;
  let elements = parsed.get(key);
  if (!elements) {
    const fresh = markdownToElements({ ...(breaks ? WITH_BREAKS : PLAIN), children: text });
    elements = fresh;
    parsed.set(key, fresh);
    if (parsed.size > CACHE_ENTRIES) parsed.delete(parsed.keys().next().value!);
  }
  return <div className="markdown">{elements}</div>;
}
