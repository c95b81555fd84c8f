import type { ReactElement } from "react";
import markdownToElements, { defaultUrlTransform, type Options } from "react-markdown";

/**
 * Model output and user text are untrusted: react-markdown builds React elements from the Markdown syntax tree and never
 * sets innerHTML; raw HTML in the text is dropped (`skipHtml`), `javascript:` and other unsafe URLs are removed, and
 * images are shown as text (no request to a host the text chose; the CSP would block it anyway).
 */
const OPTIONS: Omit<Options, "children"> = {
  skipHtml: true,
  urlTransform: defaultUrlTransform,
  components: {
    a: ({ href, children }) => (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ),
    img: ({ src, alt }) => <span className="image-ref">[image: {alt || String(src ?? "")}]</span>,
  },
};

/**
 * Parsed texts, newest last: a virtualised timeline mounts a row again each time it scrolls back into view, and parsing
 * its Markdown again each time would cost a frame on a fast scroll. (react-markdown's synchronous `Markdown` is a plain
 * function without hooks, so its result can be kept and reused.)
 */
const parsed = new Map<string, ReactElement>();
const CACHE_ENTRIES = 2_000;

export function Markdown({ text }: { text: string }) {
  let elements = parsed.get(text);
  if (!elements) {
    const fresh = markdownToElements({ ...OPTIONS, children: text });
    elements = fresh;
    parsed.set(text, fresh);
    if (parsed.size > CACHE_ENTRIES) parsed.delete(parsed.keys().next().value!);
  }
  return <div className="markdown">{elements}</div>;
}
