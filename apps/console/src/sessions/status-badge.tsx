export function StatusBadge({
  status,
  stopReason,
  waiting,
}: {
  status: string;
  stopReason: string | null;
  waiting: number;
}) {
  if (status === "running") return <span className="badge running">running</span>;
  if (waiting > 0) return <span className="badge waiting">waiting for you ({waiting})</span>;
  if (stopReason === "guardrail_blocked") return <span className="badge failed">idle · blocked by a guardrail</span>;
  return (
    <span className={`badge ${stopReason === "error" ? "failed" : ""}`}>
      idle{stopReason ? ` · ${stopReason}` : ""}
    </span>
  );
}
