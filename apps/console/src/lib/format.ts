const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per time zone: `toLocaleString` with options builds a new one per call (slow in a long list). */
function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let formatter = formatters.get(key);
  if (!formatter) {
    // Explicit fields: `dateStyle` cannot be combined with `timeZoneName` (a RangeError).
    formatter = new Intl.DateTimeFormat(undefined, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      ...(timeZone ? { timeZone, timeZoneName: "short" } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return "—";
  return formatterFor(timeZone).format(new Date(iso));
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
