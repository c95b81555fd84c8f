/** Fills `:name` segments (and a trailing `*`) of a contract path. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) {
        const value = params[segment.slice(1)];
        if (value === undefined) throw new TypeError(`Missing path parameter ${segment.slice(1)}`);
        return encodeURIComponent(String(value));
      }
      if (segment === "*") {
        const value = params["*"] ?? params["0"] ?? params.path;
        return String(value ?? "")
          .split("/")
          .map(encodeURIComponent)
          .join("/");
      }
      return segment;
    })
    .join("/");
}

/** Query objects: scalars as `k=v`, arrays repeated, nested objects as `k[sub]=v` (e.g. `metadata[team]=x`). */
export function encodeQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) for (const v of value) add(key, v);
    else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${key}[${k}]`, v);
    } else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [k, v] of Object.entries(query)) add(k, v);
  return parts.length ? `?${parts.join("&")}` : "";
}
