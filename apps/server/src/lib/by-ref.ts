/**
 * Maps each reference (an id or a name) to the row it names among `rows`: an id match wins over a name match, so a
 * resource named like another's id is never mistaken for it. References naming nothing are absent from the map.
 */
export function byRef<T extends { id: string; name: string }>(
  rows: readonly T[],
  refs: readonly string[],
): Map<string, T> {
  const ids = new Map(rows.map((r) => [r.id, r]));
  const names = new Map(rows.map((r) => [r.name, r]));
  const found = new Map<string, T>();
  for (const ref of refs) {
    const row = ids.get(ref) ?? names.get(ref);
    if (row) found.set(ref, row);
  }
  return found;
}
