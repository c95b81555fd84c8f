/**
 * Splits a document into passages by structure and size: Markdown headings make sections (their titles become each
 * passage's heading path), blank lines make paragraphs, and paragraphs are packed into passages of at most `maxChars`
 * characters; a longer paragraph is cut at sentence ends, then at spaces. Each passage after the first of a section
 * starts `overlapChars` earlier (at a word boundary), so an idea cut at a border is whole in one of the two. A
 * passage's text is exactly `content.slice(start, end)`; offsets are returned in code points (what PostgreSQL's
 * `substr` counts).
 */

export interface TextChunk {
  position: number;
  headingPath: string[];
  /** Code points of the content, `[startOffset, endOffset)`. */
  startOffset: number;
  endOffset: number;
  text: string;
}

export interface ChunkOptions {
  maxChars: number;
  overlapChars: number;
  /** `markdown` reads headings; `text` is paragraphs only. */
  format: "text" | "markdown";
}

interface Section {
  headingPath: string[];
  start: number;
  end: number;
}

const ATX = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

function sections(content: string, format: ChunkOptions["format"]): Section[] {
  if (format !== "markdown") return [{ headingPath: [], start: 0, end: content.length }];
  const result: Section[] = [];
  const stack: { level: number; title: string }[] = [];
  let sectionStart = 0;
  let fence: string | null = null;
  let offset = 0;
  let previous: { start: number; text: string } | null = null;
  // A section's passages start after its heading line: the heading is in their heading path (searched and embedded
  // with them), so it does not take a passage of its own.
  const open = (start: number, bodyStart: number, level: number, title: string) => {
    if (start > sectionStart) result.push({ headingPath: stack.map((h) => h.title), start: sectionStart, end: start });
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, title: title.trim().slice(0, 200) });
    sectionStart = Math.min(bodyStart, content.length);
  };
  for (const line of content.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = null;
      previous = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      previous = null;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      open(start, offset, atx[1]!.length, atx[2]!);
      previous = null;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && previous && previous.text.trim().length > 0) {
      open(previous.start, offset, setext[1]!.startsWith("=") ? 1 : 2, previous.text);
      previous = null;
      continue;
    }
    previous = { start, text: line };
  }
  result.push({ headingPath: stack.map((h) => h.title), start: sectionStart, end: content.length });
  return result.filter((s) => s.end > s.start);
}

/** `[start, end)` ranges of the paragraphs of a range (text between blank lines), without surrounding blank lines. */
function paragraphs(content: string, start: number, end: number): [number, number][] {
  const ranges: [number, number][] = [];
  const blank = /\n[ \t]*\n/g;
  blank.lastIndex = start;
  let from = start;
  for (let m = blank.exec(content); m && m.index < end; m = blank.exec(content)) {
    ranges.push([from, m.index]);
    from = m.index + m[0].length;
  }
  ranges.push([from, end]);
  return ranges.map(([a, b]) => trimRange(content, a, b)).filter(([a, b]) => b > a);
}

function trimRange(content: string, start: number, end: number): [number, number] {
  let a = start;
  let b = end;
  while (a < b && /\s/.test(content[a]!)) a++;
  while (b > a && /\s/.test(content[b - 1]!)) b--;
  return [a, b];
}

/** Where to cut a range longer than `max`: the last sentence end, else the last space, else `max` (not in a pair). */
function cutPoint(content: string, start: number, max: number): number {
  const limit = start + max;
  const window = content.slice(start, limit);
  const sentence = Math.max(
    window.lastIndexOf(". "),
    window.lastIndexOf("? "),
    window.lastIndexOf("! "),
    window.lastIndexOf("\n"),
  );
  if (sentence > max / 3) return start + sentence + 1;
  const space = window.lastIndexOf(" ");
  if (space > max / 3) return start + space + 1;
  const code = content.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** Splits a paragraph longer than `max` into pieces no longer than `max`. */
function pieces(content: string, start: number, end: number, max: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  while (end - from > max) {
    const cut = cutPoint(content, from, max);
    const [a, b] = trimRange(content, from, cut);
    if (b > a) out.push([a, b]);
    from = cut;
  }
  const [a, b] = trimRange(content, from, end);
  if (b > a) out.push([a, b]);
  return out;
}

/** The start of an overlap: `overlap` characters before `start`, moved forward to the next word, not before `floor`. */
function overlapStart(content: string, start: number, overlap: number, floor: number): number {
  if (overlap <= 0) return start;
  let at = Math.max(floor, start - overlap);
  if (at > floor) {
    while (at < start && !/\s/.test(content[at - 1]!)) at++;
  }
  while (at < start && /\s/.test(content[at]!)) at++;
  return at;
}

/** Code point offsets for UTF-16 indexes (identity when the text has no surrogate pairs). */
function codePointIndex(content: string): (index: number) => number {
  if (!/[\ud800-\udbff]/.test(content)) return (index) => index;
  const prefix = new Uint32Array(content.length + 1);
  for (let i = 0, n = 0; i < content.length; i++) {
    prefix[i] = n;
    const code = content.charCodeAt(i);
    if (!(code >= 0xdc00 && code <= 0xdfff && i > 0 && content.charCodeAt(i - 1) >= 0xd800)) n++;
    prefix[i + 1] = n;
  }
  return (index) => prefix[index]!;
}

export function chunkText(content: string, options: ChunkOptions): TextChunk[] {
  const max = Math.max(16, options.maxChars);
  const overlap = Math.min(Math.max(0, options.overlapChars), Math.floor(max / 2));
  const toCodePoint = codePointIndex(content);
  const chunks: TextChunk[] = [];
  const emit = (headingPath: string[], start: number, end: number) => {
    chunks.push({
      position: chunks.length,
      headingPath,
      startOffset: toCodePoint(start),
      endOffset: toCodePoint(end),
      text: content.slice(start, end),
    });
  };
  for (const section of sections(content, options.format)) {
    // Pieces leave room for the overlap in front of them.
    const units = paragraphs(content, section.start, section.end).flatMap(([a, b]) =>
      pieces(content, a, b, max - overlap),
    );
    let current: [number, number] | null = null;
    for (const [a, b] of units) {
      if (current && b - current[0] <= max) {
        current[1] = b;
        continue;
      }
      if (current) emit(section.headingPath, current[0], current[1]);
      const start: number = current ? overlapStart(content, a, overlap, current[0] + 1) : a;
      current = [b - start <= max ? start : a, b];
    }
    if (current) emit(section.headingPath, current[0], current[1]);
  }
  // A document of only blank space still gets one passage, so that every document has at least one.
  if (chunks.length === 0) emit([], 0, content.length);
  return chunks;
}
