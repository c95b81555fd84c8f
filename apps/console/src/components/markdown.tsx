import ReactMarkdown, { defaultUrlTransform } from "react-markdown";

/**
 * Model output and user text are untrusted: react-markdown builds React elements from the Markdown syntax tree and never
 * sets innerHTML; raw HTML in the text is dropped (`skipHtml`), `javascript:` and other unsafe URLs are removed, and
 * images are shown as links (no request to a host the text chose; the CSP would block it anyway).
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        skipHtml
        urlTransform={defaultUrlTransform}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {children}
            </a>
          ),
          img: ({ src, alt }) => <span className="image-ref">[image: {alt || String(src ?? "")}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
