import { ERROR_STATUS } from "@agent-platform/contract";
import fc from "fast-check";
import type { ContractRoute } from "./contract-routes.js";
import { fillPath } from "./contract-routes.js";
import { arbitraryOf } from "./zod-arbitrary.js";

/** One generated request: everything needed to send it. */
export interface FuzzRequest {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** What the generator meant to exercise (for failure reports). */
  shape: string;
}

export interface FuzzKeys {
  admin: string;
  member: string;
}

const IDEMPOTENCY_HEADERS = ["Idempotency-Key", "Last-Event-ID", "X-Request-Id", "Accept", "Origin"];

/** Path parameter values: the world's real ids, ids that exist nowhere, and hostile strings. */
function pathIds(ids: Record<string, string>): fc.Arbitrary<Record<string, string>> {
  const hostile = fc.oneof(
    fc.constantFrom(
      "zz_00000000000000000000000000",
      "..",
      "../..",
      "%2e%2e%2f",
      "%E0%A4%A",
      "%",
      "0",
      "-1",
      "9999999999999999999999",
      "null",
      "' OR 1=1 --",
      "a".repeat(5_000),
      "\u0000",
      "😀",
    ),
    fc.string({ maxLength: 80, unit: "binary" }),
  );
  const keys = Object.keys(ids);
  return fc
    .tuple(fc.subarray(keys), fc.array(hostile, { minLength: keys.length, maxLength: keys.length }))
    .map(([replaced, values]) => {
      const out = { ...ids };
      replaced.forEach((key, i) => {
        out[key] = values[i] ?? "x";
      });
      return out;
    });
}

/** A JSON value nested `depth` levels deep, as text (parsers and validators must not blow their stack). */
function deepJson(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}1${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

function bodyOf(route: ContractRoute): fc.Arbitrary<{ body?: string | Uint8Array; type?: string; shape: string }> {
  const schema = route.body ? arbitraryOf(route.body) : fc.jsonValue({ maxDepth: 2 });
  const json = (value: unknown, shape: string) => ({
    body: JSON.stringify(value) ?? "null",
    type: "application/json",
    shape,
  });
  return fc.oneof(
    { weight: 10, arbitrary: schema.map((v) => json(v, "schema")) },
    // Schema-shaped with one field replaced by a random JSON value.
    {
      weight: 4,
      arbitrary: fc.tuple(schema, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 })).map(([v, key, junk]) => {
        const object = typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v } : {};
        const keys = Object.keys(object);
        const target = keys.length > 0 ? keys[key.length % keys.length]! : key;
        return json({ ...object, [target]: junk }, "schema+junk-field");
      }),
    },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => json(v, "random-json")) },
    { weight: 1, arbitrary: fc.constant({ shape: "no-body" }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom("array" as const, "object" as const))
        .map(([depth, kind]) => ({ body: deepJson(depth, kind), type: "application/json", shape: `deep-${kind}` })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({
        body: Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, ...bytes, 0x22, 0x7d]),
        type: "application/json",
        shape: "invalid-utf8",
      })),
    },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 200 }).map((s) => ({ body: s, type: "application/json", shape: "not-json" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=latin1",
          "application/json; charset=utf-7",
        )
        .map((type) => ({ body: '{"name":"x"}', type, shape: `content-type ${type}` })),
    },
    // Over the 10 MiB limit: rare, it is big.
    {
      weight: 1,
      arbitrary: fc.constant({
        body: `{"name":"${"x".repeat(10 * 1024 * 1024 + 10)}"}`,
        type: "application/json",
        shape: "oversized",
      }),
    },
  );
}

function queryOf(route: ContractRoute): fc.Arbitrary<{ query: string; shape: string }> {
  const encode = (value: unknown) =>
    typeof value === "object" && value !== null
      ? Object.entries(value as Record<string, unknown>)
          .map(
            ([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === "string" ? v : JSON.stringify(v))}`,
          )
          .join("&")
      : "";
  const schema = route.query ? arbitraryOf(route.query) : fc.constant({});
  return fc.oneof(
    { weight: 8, arbitrary: schema.map((v) => ({ query: encode(v), shape: "schema-query" })) },
    {
      weight: 3,
      arbitrary: fc
        .dictionary(
          fc.constantFrom("limit", "cursor", "afterSeq", "name", "status", "version", "key", "x", "limit[]", "a[b][c]"),
          fc.string({ maxLength: 40 }),
          { maxKeys: 4 },
        )
        .map((v) => ({ query: encode(v), shape: "random-query" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100, max: 2_000 })
        .map((n) => ({ query: Array.from({ length: n }, (_, i) => `k${i}=v`).join("&"), shape: "many-params" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 4_000, max: 12_000 })
        .map((n) => ({ query: `name=${"q".repeat(n)}`, shape: "long-query" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 20_000, max: 60_000 })
        .map((n) => ({ query: `x=${"q".repeat(n)}`, shape: "huge-query" })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        query: "a[b][c][d][e][f][g][h][i][j][k]=1&limit[$gt]=1&__proto__[x]=1",
        shape: "nested-query",
      }),
    },
  );
}

/** Generated requests for each route of the contract (one arbitrary per route, in the order given). */
export function fuzzRequests(
  routes: ContractRoute[],
  ids: Record<string, string>,
  keys: FuzzKeys,
): fc.Arbitrary<FuzzRequest>[] {
  return routes.map((route) =>
    fc
      .record({
        ids: fc.oneof({ weight: 3, arbitrary: fc.constant(ids) }, { weight: 1, arbitrary: pathIds(ids) }),
        body: bodyOf(route),
        query: queryOf(route),
        key: fc.oneof(
          { weight: 10, arbitrary: fc.constant(`Bearer ${keys.admin}`) },
          { weight: 2, arbitrary: fc.constant(`Bearer ${keys.member}`) },
          { weight: 1, arbitrary: fc.constant("") },
          { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`) },
        ),
        extra: fc.dictionary(
          fc.constantFrom(...IDEMPOTENCY_HEADERS),
          fc.string({ maxLength: 300, unit: "grapheme-ascii" }),
          { maxKeys: 2 },
        ),
        method: fc.oneof(
          { weight: 12, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE") },
        ),
      })
      .map(({ ids: chosen, body, query, key, extra, method }): FuzzRequest => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(extra)) headers[name] = value.replace(/[^\x20-\x7e]/g, "");
        if (key) headers.Authorization = key;
        const sendsBody = method !== "GET" && body.body !== undefined;
        if (sendsBody && body.type) headers["Content-Type"] = body.type;
        const path = fillPath(route.path, chosen);
        const request: FuzzRequest = {
          route: route.name,
          method,
          path: query.query ? `${path}?${query.query}` : path,
          headers,
          ...(sendsBody ? { body: body.body } : {}),
          shape: `${body.shape}, ${query.shape}${method !== route.method ? `, method ${method}` : ""}`,
        };
        // Counterexamples are printed short: method, path, route and what was generated.
        Object.defineProperty(request, fc.toStringMethod, {
          value: () => `${method} ${request.path.slice(0, 200)} (${request.route}; ${request.shape})`,
        });
        return request;
      }),
  );
}

/** Problems with an answer: a 5xx, or an error that is not the envelope with a known code and its status. */
export function answerProblems(status: number, contentType: string | null, text: string): string[] {
  if (status >= 500) return [`${status} ${text.slice(0, 300)}`];
  if (status < 400) return [];
  // Refused by Node's HTTP parser before the app saw it (headers too large): no envelope is possible.
  if (status === 431) return [];
  if (!contentType?.includes("application/json")) return [`${status} without a JSON envelope: ${text.slice(0, 200)}`];
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    return [`${status} with a body that is not JSON`];
  }
  const expected = code ? ERROR_STATUS[code as keyof typeof ERROR_STATUS] : undefined;
  if (expected === undefined) return [`${status} with an unknown error code ${code}`];
  if (expected !== status) return [`${code} answered with ${status} instead of ${expected}`];
  return [];
}
