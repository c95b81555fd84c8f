/**
 * `ticket=42, team=support` → `{ ticket: "42", team: "support" }` (the sessions or documents whose metadata has every pair); a piece
 * without `key=` is an error to show, not a filter to send.
 */
export function parseMetadataFilter(text: string): { pairs?: Record<string, string>; error?: string } {
  const pieces = text
    .split(",")
    .map((pair) => pair.trim())
    .filter(Boolean);
  if (pieces.length === 0) return {};
  const pairs: Record<string, string> = {};
  for (const piece of pieces) {
    const at = piece.indexOf("=");
    if (at <= 0) return { error: `Write each pair as key=value: “${piece}” has no key and “=”.` };
    pairs[piece.slice(0, at).trim()] = piece.slice(at + 1).trim();
  }
  return { pairs };
}
