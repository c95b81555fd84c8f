/**
 * How the provider fakes count tokens: at least as many as a real BPE tokenizer (cl100k, o200k, Claude's) cuts, so
 * that the platform's estimate of about 4 characters a token can fall short in tests as it does in production. Code
 * and JSON are the cases where it does: their punctuation, digits and identifiers take a token every 2–3 characters.
 *
 * A leading space belongs to the word after it (` hello` is one piece, as in BPE vocabularies); then
 * - a run of letters is a token per 6 letters (common words are one token, long or rare ones several);
 * - a run of digits is a token per 3 digits (cl100k and o200k group digits by three);
 * - a run of other characters (JSON's `":`, `},`, operators, non-Latin text) is a token per 3 characters;
 * - a run of whitespace (newlines, indentation) is one token.
 * English prose comes out at ~4.4 characters a token, lorem-ish words with digits at ~3.5, JSON and code at ~2.7.
 */
const PIECES = / ?[A-Za-z]+| ?\d+| ?[^\sA-Za-z\d]+|\s+/g;

function sizeOf(body: string): number {
  if (/^[A-Za-z]/.test(body)) return 6;
  if (/^\d/.test(body)) return 3;
  if (/^\S/.test(body)) return 3;
  return body.length || 1;
}

/** The text's tokens (their concatenation is the text), as the fakes count them. */
export function fakeTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const [piece] of text.matchAll(PIECES)) {
    const body = piece.length > 1 && piece[0] === " " ? piece.slice(1) : piece;
    const lead = piece.length - body.length;
    const size = sizeOf(body);
    for (let at = 0; at < body.length; at += size) {
      tokens.push(`${at === 0 ? piece.slice(0, lead) : ""}${body.slice(at, at + size)}`);
    }
  }
  return tokens;
}

/** The number of tokens of `text` (or of a value's JSON, as providers count tool calls and tool definitions). */
export function countFakeTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return fakeTokens(typeof value === "string" ? value : JSON.stringify(value)).length;
}

/** Tokens an image costs in a prompt, whatever its size (OpenAI bills a low-detail image 85, a tile 170). */
export const IMAGE_TOKENS = 255;

/** Tokens of the frame of each chat message (role and separators), as OpenAI's cookbook counts them. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
