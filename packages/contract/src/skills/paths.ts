/**
 * Rules for file paths inside a skill, shared by the request schemas (server) and anyone building requests (SDK).
 * A path is relative, `/`-separated and already normalized: `scripts/run.py`, never `./run.py`, `a//b`, `a/../b`,
 * `/etc/passwd`, `C:\x` or `dir/`. The check does not rewrite paths, so what is published is exactly what is read back.
 */

/** Maximum UTF-8 bytes of one path segment (the usual file-name limit of file systems). */
export const SKILL_PATH_SEGMENT_BYTES = 255;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** UTF-8 byte length of a string, without allocating (lone surrogates count as the 3 bytes of U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** True when the string is valid Unicode (no unpaired surrogate), so it round-trips through UTF-8 unchanged. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Why `path` is not an acceptable skill file path, or `undefined` when it is. */
export function skillPathProblem(path: string): string | undefined {
  if (path.length === 0) return "must not be empty";
  if (path.startsWith("/")) return "must be relative (no leading `/`)";
  if (/^[A-Za-z]:/.test(path)) return "must be relative (no drive letter)";
  if (path.includes("\\")) return "must use `/` as the separator (no `\\`)";
  if (hasControlCharacter(path)) return "must not contain control characters";
  if (!isWellFormedText(path)) return "must be valid Unicode text";
  const segments = path.split("/");
  if (segments.includes("..")) return "must not contain `..` segments";
  if (segments.includes(".")) return "must be normalized (no `.` segments)";
  if (segments.includes("")) return "must be normalized (no empty segment: `//`, or a trailing `/`)";
  if (segments.some((s) => utf8ByteLength(s) > SKILL_PATH_SEGMENT_BYTES)) {
    return `each segment must be at most ${SKILL_PATH_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/** Percent-encodes each segment of a (valid) skill path for use in a URL; `/` separators stay as they are. */
export function encodeSkillPath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
