/** A figure with its label (totals of an experiment, of usage). */
export function Card({ label, value }: { label: string; value: string }) {
  return (
    <div className="card">
      <div className="muted">{label}</div>
      <div className="value">{value}</div>
    </div>
  );
}
