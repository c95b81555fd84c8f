import { createHash } from "node:crypto";
import type { CursorPage } from "@agent-platform/contract";
import { AppError } from "./app-error.js";

type CursorKey = string | number;

interface CursorPayload {
  k: CursorKey;
  f: string;
}

function filterHash(filters: Record<string, unknown>): string {
  const normal = Object.keys(filters)
    .sort()
    .filter((k) => filters[k] !== undefined)
    .map((k) => [k, filters[k]]);
  return createHash("sha256").update(JSON.stringify(normal)).digest("base64url").slice(0, 12);
}

/**
 * Opaque cursors carry the sort key of the last item returned and a hash of the filters that produced them; reusing a
 * cursor with other filters is a 400. The filter hash is not a secret, so a cursor can be forged: its key is checked
 * for the type the list sorts by, never handed to SQL as something else.
 */
function decodeKey(cursor: string, filters: Record<string, unknown>): CursorKey {
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorPayload;
  } catch {
    throw badCursor("The cursor is not one this API issued");
  }
  if (!payload || (typeof payload.k !== "string" && typeof payload.k !== "number") || typeof payload.f !== "string") {
    throw badCursor("The cursor is not one this API issued");
  }
  if (payload.f !== filterHash(filters)) throw badCursor("The cursor was issued for other filters");
  return payload.k;
}

/** The key of a cursor for a list ordered by a text key (an id, a name). */
export function decodeCursor(cursor: string | undefined, filters: Record<string, unknown>): string | undefined {
  if (!cursor) return undefined;
  const key = decodeKey(cursor, filters);
  if (typeof key !== "string") throw badCursor("The cursor is not one this API issued");
  return key;
}

/** The key of a cursor for a list ordered by an integer (a version, a position). */
export function decodeNumberCursor(cursor: string | undefined, filters: Record<string, unknown>): number | undefined {
  if (!cursor) return undefined;
  const key = decodeKey(cursor, filters);
  if (typeof key !== "number" || !Number.isSafeInteger(key)) throw badCursor("The cursor is not one this API issued");
  return key;
}

function badCursor(message: string): AppError {
  return new AppError("request.invalid", message, { issues: [{ path: "query.cursor", message }] });
}

/** `rows` were fetched with `limit + 1` so the extra row tells whether there is more. */
export function pageOf<T, R = T>(
  rows: T[],
  limit: number,
  filters: Record<string, unknown>,
  keyOf: (row: T) => CursorKey,
  map: (row: T) => R = (row) => row as unknown as R,
): CursorPage<R> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  const nextCursor =
    hasMore && last !== undefined
      ? Buffer.from(JSON.stringify({ k: keyOf(last), f: filterHash(filters) } satisfies CursorPayload)).toString(
          "base64url",
        )
      : null;
  return { data: data.map(map), hasMore, nextCursor };
}
