import { Parser } from "htmlparser2";

const SKIP = new Set(["script", "style", "noscript", "template", "head", "svg", "iframe", "object"]);
const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "nav",
  "aside",
  "ul",
  "ol",
  "table",
  "tr",
  "blockquote",
  "pre",
  "figure",
  "figcaption",
  "dl",
  "dt",
  "dd",
  "form",
  "fieldset",
  "address",
  "hr",
  "details",
  "summary",
]);

/**
 * The text an HTML document shows, as Markdown-like text: headings become `#` lines (so the chunker can follow the
 * document's structure), block elements paragraphs, list items `- ` lines, table cells are separated by ` | `, and
 * scripts, styles and other invisible parts are dropped. Entities are decoded by the parser (htmlparser2).
 */
export function htmlToMarkdown(html: string): string {
  const out: string[] = [];
  let skipping = 0;
  let pre = 0;
  const breakBlock = () => out.push("\n\n");
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skipping++;
        if (skipping) return;
        const level = /^h([1-6])$/.exec(name);
        if (level) {
          breakBlock();
          out.push(`${"#".repeat(Number(level[1]))} `);
        } else if (name === "li") out.push("\n- ");
        else if (name === "br") out.push("\n");
        else if (name === "td" || name === "th") out.push(" | ");
        else if (name === "pre") {
          pre++;
          breakBlock();
        } else if (BLOCK.has(name)) breakBlock();
      },
      ontext(text) {
        if (skipping) return;
        out.push(pre ? text : text.replace(/\s+/g, " "));
      },
      onclosetag(name) {
        if (SKIP.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (skipping) return;
        if (/^h[1-6]$/.test(name)) breakBlock();
        else if (name === "pre") {
          pre = Math.max(0, pre - 1);
          breakBlock();
        } else if (BLOCK.has(name)) breakBlock();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return out
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/g, "").replace(/^[ \t]+(?=\S)/, (m) => (m.length > 3 ? "" : m)))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^# +$/gm, "")
    .trim();
}
