/**
 * `builtin/hash-ngrams`: the offline embedder of the default install and the tests. It is NOT a language model and
 * knows no meaning: a text's vector is the hashed count of its words, its word pairs and the character trigrams of
 * its words ("feature hashing"), each sublinearly weighted, with a short list of English function words left out,
 * then L2-normalised. So it matches texts that share words, word forms ("refunds" ~ "refunded": shared trigrams) and
 * phrases, regardless of word order or whether every query word is present — which full-text search does not — but
 * not synonyms ("money back" is not "refund"). Deterministic: the same text always gives the same vector.
 */

export const BUILTIN_EMBEDDING_DIMENSIONS = 512;

// Function words that would otherwise dominate every vector (no IDF is known without a corpus).
const STOP_WORDS = new Set(
  (
    "a about am an and any are as at be been but by can could did do does for from get got had has have how i if in " +
    "into is it its me my no not of on or our so than that the their them then there these they this to us was we " +
    "were what when where which who why will with would you your"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a, 32 bits. */
function hash(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function add(counts: Map<string, number>, feature: string, weight: number): void {
  counts.set(feature, (counts.get(feature) ?? 0) + weight);
}

function features(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const words = (text.normalize("NFKC").toLowerCase().match(WORD) ?? []).filter((w) => !STOP_WORDS.has(w));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    add(counts, `w:${word}`, 1);
    if (i + 1 < words.length) add(counts, `b:${word} ${words[i + 1]}`, 0.5);
    const padded = `^${word}$`;
    if (padded.length > 4) {
      // The trigrams of a word weigh as much as the word (unit norm together): a shared word form counts.
      const share = 1 / Math.sqrt(padded.length - 2);
      for (let j = 0; j + 3 <= padded.length; j++) add(counts, `t:${padded.slice(j, j + 3)}`, share);
    }
  }
  return counts;
}

/** The vector of one text (length `BUILTIN_EMBEDDING_DIMENSIONS`, unit length; all zeros for a text without words). */
export function builtinEmbedding(text: string, dimensions = BUILTIN_EMBEDDING_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const [feature, count] of features(text)) {
    const h = hash(feature, 0);
    const sign = hash(feature, 0x9e3779b9) & 1 ? 1 : -1;
    vector[h % dimensions]! += sign * (count > 1 ? 1 + Math.log(count) : count);
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vector[i]! * vector[i]!;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  }
  return vector;
}
