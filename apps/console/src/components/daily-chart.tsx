/**
 * Vertical bars, one per day, in plain SVG (a chart library would weigh more than the page). The chart has a title and
 * each bar a text title (value and day) for screen readers and pointers; the same figures are in a table below it.
 */
export function DailyChart({
  title,
  days,
  format,
}: {
  title: string;
  days: { date: string; value: number }[];
  format(value: number): string;
}) {
  const width = 640;
  const height = 160;
  const top = Math.max(...days.map((d) => d.value), 0);
  if (top === 0) {
    return (
      <figure className="chart">
        <figcaption>{title}</figcaption>
        <p className="muted">Nothing in this period.</p>
      </figure>
    );
  }
  const slot = width / Math.max(days.length, 1);
  const bar = Math.max(2, slot * 0.7);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} width={width} height={height + 20} role="img" aria-label={title}>
        <title>{title}</title>
        {days.map((day, i) => {
          const h = (day.value / top) * height;
          return (
            <g key={day.date}>
              <rect className="bar" x={i * slot + (slot - bar) / 2} y={height - h} width={bar} height={h}>
                <title>
                  {day.date}: {format(day.value)}
                </title>
              </rect>
              {(days.length <= 14 || i % Math.ceil(days.length / 10) === 0) && (
                <text x={i * slot + slot / 2} y={height + 14} textAnchor="middle">
                  {day.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
