import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText } from "../../src/runtime/tools/http/html-to-text.js";

describe("htmlToText", () => {
  it("drops scripts, styles, comments and the head but keeps the title", () => {
    const html =
      "<html><head><title>T &amp; U</title><style>p{}</style></head><body><!-- hidden --><script>x()</script>" +
      "<noscript>no</noscript><p>Body</p></body></html>";
    expect(htmlToText(html)).toBe("# T & U\n\nBody");
  });

  it("turns blocks into lines, list items into dashes and cells into columns", () => {
    const html =
      "<h1>Title</h1><p>one<br>two</p><ul><li>a</li><li>b</li></ul><table><tr><td>1</td><td>2</td></tr></table>";
    expect(htmlToText(html)).toBe("Title\n\none\ntwo\n\n- a\n- b\n\n| 1 | 2");
  });

  it("keeps link targets, absolute against the page URL, and skips fragments and javascript:", () => {
    const html =
      '<a href="/docs?a=1&amp;b=2">Docs</a> <a href=\'https://x.test/\'><b>X</b></a> <a href="#top">Top</a> ' +
      '<a href="javascript:void(0)">JS</a> <a href=plain>Plain</a>';
    expect(htmlToText(html, "https://site.test/dir/page")).toBe(
      "[Docs](https://site.test/docs?a=1&b=2) [X](https://x.test/) Top JS [Plain](https://site.test/dir/plain)",
    );
  });

  it("collapses whitespace", () => {
    expect(htmlToText("<div>  a \n\n\n\n  b\t c </div>")).toBe("a\n\nb c");
  });
});

describe("decodeEntities", () => {
  it("decodes named, decimal and hex entities and leaves unknown ones", () => {
    expect(decodeEntities("&lt;&gt;&quot;&#39;&#x41;&nbsp;&hellip;&unknown;&#0;")).toBe("<>\"'A …&unknown;&#0;");
  });
});
