/** Rows of two text fields (metadata keys and values), added and removed one by one. */
export function PairsEditor({
  pairs,
  onChange,
  labels,
  noun,
}: {
  pairs: { key: string; value: string }[];
  onChange(pairs: { key: string; value: string }[]): void;
  labels: [string, string];
  noun: string;
}) {
  const set = (index: number, patch: Partial<{ key: string; value: string }>) =>
    onChange(pairs.map((pair, i) => (i === index ? { ...pair, ...patch } : pair)));
  return (
    <div className="rows-editor">
      {pairs.map((pair, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; a key that changes would lose focus
        <div key={index} className="editor-row">
          <input
            aria-label={`${labels[0]} ${index + 1}`}
            placeholder={labels[0]}
            value={pair.key}
            onChange={(e) => set(index, { key: e.target.value })}
          />
          <input
            aria-label={`${labels[1]} ${index + 1}`}
            placeholder={labels[1]}
            value={pair.value}
            onChange={(e) => set(index, { value: e.target.value })}
          />
          <button
            type="button"
            aria-label={`Remove ${noun} ${index + 1}`}
            onClick={() => onChange(pairs.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" onClick={() => onChange([...pairs, { key: "", value: "" }])}>
          Add {noun}
        </button>
      </div>
    </div>
  );
}
