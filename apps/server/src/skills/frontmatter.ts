import { parse, YAMLError } from "yaml";

/** `present` says whether the text opens a frontmatter at all (a first line `---`), readable or not. */
export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; present: boolean; reason: string };

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Reads the YAML frontmatter of a Markdown text: a first line `---`, YAML, then a line `---` (or `...`). The YAML must
 * be a mapping. Parsed with the YAML 1.2 core schema, duplicate keys refused, aliases bounded.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  if (!OPEN.test(lines[0] ?? ""))
    return { ok: false, present: false, reason: "has no YAML frontmatter (a first line `---`)" };
  const end = lines.findIndex((line, i) => i > 0 && CLOSE.test(line));
  if (end === -1)
    return { ok: false, present: true, reason: "has a YAML frontmatter that is never closed by a line `---`" };
  let data: unknown;
  try {
    data = parse(lines.slice(1, end).join("\n"), {
      schema: "core",
      uniqueKeys: true,
      maxAliasCount: 100,
      prettyErrors: false,
      logLevel: "error",
    });
  } catch (error) {
    const message = error instanceof YAMLError ? error.message.split("\n")[0] : String(error);
    return { ok: false, present: true, reason: `has invalid YAML frontmatter: ${message}` };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, present: true, reason: "has a YAML frontmatter that is not a mapping of keys to values" };
  }
  return { ok: true, data: data as Record<string, unknown>, body: lines.slice(end + 1).join("\n") };
}
