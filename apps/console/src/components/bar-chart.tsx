/**
 * A horizontal bar chart in plain SVG: a handful of bars need no chart library (and its weight). Each bar has a text
 * label and value, and the chart a title, for screen readers.
 */
export function BarChart({
  title,
  bars,
  max,
  format,
}: {
  title: string;
  bars: { label: string; value: number | null }[];
  /** The value of a full bar (1 for rates); default: the largest value. */
  max?: number;
  format(value: number | null): string;
}) {
  const width = 420;
  const labelWidth = 130;
  const valueWidth = 80;
  const rowHeight = 24;
  const top = Math.max(max ?? 0, ...bars.map((b) => b.value ?? 0), 1e-9);
  const track = width - labelWidth - valueWidth;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg width={width} height={bars.length * rowHeight} role="img" aria-label={title}>
        <title>{title}</title>
        {bars.map((bar, i) => {
          const y = i * rowHeight;
          const length = bar.value === null ? 0 : Math.max(0, (bar.value / top) * track);
          return (
            <g key={bar.label}>
              <text x={0} y={y + 16}>
                {bar.label}
              </text>
              <rect className="track" x={labelWidth} y={y + 5} width={track} height={14} rx={3} />
              <rect className="bar" x={labelWidth} y={y + 5} width={length} height={14} rx={3} />
              <text x={labelWidth + track + 8} y={y + 16}>
                {format(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
