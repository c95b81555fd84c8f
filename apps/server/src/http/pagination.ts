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
 * cursor with other filters is a 400.
 */
export function decodeCursor<K extends CursorKey = string>(
  cursor: string | undefined,
  filters: Record<string, unknown>,
): K | undefined {
  if (!cursor) return undefined;
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
  return payload.k as K;
}

/**
 * `decodeCursor` for lists ordered by an integer (a version, a position): a cursor whose key is anything else is a 400
 * like any other forged cursor, never a number-typed SQL parameter given text (the filter hash is not a secret).
 */
export function decodeNumberCursor(cursor: string | undefined, filters: Record<string, unknown>): number | undefined {
  const key = decodeCursor<CursorKey>(cursor, filters);
  if (key !== undefined && !Number.isSafeInteger(key)) throw badCursor("The cursor is not one this API issued");
  return key as number | undefined;
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
