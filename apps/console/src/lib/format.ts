export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return "—";
  // Explicit fields: `dateStyle` cannot be combined with `timeZoneName` (a RangeError).
  return new Date(iso).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    ...(timeZone ? { timeZone, timeZoneName: "short" } : {}),
  });
}

export function formatJson(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

export function formatNumber(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  return value.toLocaleString(undefined, { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return `${(value * 100).toFixed(1)} %`;
}

export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return `$${value.toFixed(value < 0.01 && value > 0 ? 5 : 4)}`;
}

export function textOf(content: readonly { type: string; text?: string }[] | undefined): string {
  return (content ?? []).map((part) => part.text ?? "").join("\n");
}
