import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { docPages, ROOT } from "./doc-pages.js";

/** Relative links in README.md and docs/*.md point at files that exist and, with `#anchor`, at a heading there. */

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  return new Set(
    [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-"),
    ),
  );
}

describe("documentation links", () => {
  it("resolve to files and headings", () => {
    const broken: string[] = [];
    for (const page of docPages()) {
      const text = readFileSync(page, "utf8")
        .replace(/^```[\s\S]*?^```$/gm, "")
        .replace(/`[^`\n]*`/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // http(s), mailto
        const [file, anchor] = target!.split("#");
        const path = file ? resolve(dirname(page), file) : page;
        const where = `${page.slice(ROOT.length)} → ${target}`;
        if (!existsSync(path)) broken.push(`${where} (no such file)`);
        else if (anchor && path.endsWith(".md") && !anchors(readFileSync(path, "utf8")).has(anchor)) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
