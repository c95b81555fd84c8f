import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startLoopback } from "../tools/support.js";
import { contractRoutes } from "./support/contract-routes.js";
import { answerProblems, type FuzzRequest, fuzzRequests } from "./support/fuzz-requests.js";
import { seedWorld, type World } from "./support/world.js";

/**
 * Schema-aware fuzzing of every route of the contract (fast-check): random and boundary bodies, queries, path ids and
 * headers; oversized bodies, deep JSON, invalid UTF-8, huge query strings. Every answer: no 5xx, errors are the
 * envelope with a known code and its status; a refused request (4xx) changes no row of any table.
 *
 * `pnpm test` runs FUZZ_RUNS (default 300) requests with a fixed seed; `pnpm fuzz` runs 10,000 (FUZZ_SEED to vary).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

// Tables whose rows a refused request may legitimately touch: stored idempotent answers, rate-limit counters.
const UNCOUNTED = new Set(["_prisma_migrations", "idempotency_records", "rate_limits"]);

let t: TestApp;
let world: World;
let memberKey: string;
let countSql: string;
let close: () => Promise<void>;

beforeAll(async () => {
  t = await startTestApp();
  const endpoint = await startLoopback((_req, res) => res.end("{}"));
  close = endpoint.close;
  world = await seedWorld(t, t.tenant, { tag: "fz", mcpUrl: `${endpoint.url}/mcp`, toolUrl: `${endpoint.url}/tool` });
  const member = await t.http
    .post("/v1/api-keys")
    .set(t.tenant.auth)
    .send({ name: "fuzz-member", projectId: t.tenant.projectId, role: "member" });
  memberKey = member.body.key;
  const tables = await t.platform.ctx.db.pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  const counted = tables.rows.map((r) => r.name).filter((name) => !UNCOUNTED.has(name));
  // Every table's exact row count in one round trip.
  countSql = `SELECT json_build_object(${counted.map((n) => `'${n}', (SELECT count(*) FROM "${n}")`).join(", ")}) AS counts`;
});

afterAll(async () => {
  await t?.close();
  await close?.();
});

async function rowCounts(): Promise<Record<string, number>> {
  return (await t.platform.ctx.db.pool.query<{ counts: Record<string, number> }>(countSql)).rows[0]!.counts;
}

async function send(request: FuzzRequest): Promise<{ status: number; contentType: string | null; text: string }> {
  const controller = new AbortController();
  const response = await fetch(`${t.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    signal: controller.signal,
    redirect: "manual",
  });
  // An event stream that opened stays open: its status is the answer.
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    controller.abort();
    return { status: response.status, contentType: response.headers.get("content-type"), text: "" };
  }
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

describe("fuzzing every route of the contract", () => {
  it(
    `answers ${RUNS} generated requests without a 5xx, with envelopes, and without partial writes`,
    async () => {
      const routes = contractRoutes();
      const arbitraries = fuzzRequests(routes, world.ids, { admin: t.tenant.key, member: memberKey });
      // The same number of requests for every route, each route with its own seed: all are covered, deterministically.
      const perRoute = Math.max(1, Math.ceil(RUNS / routes.length));
      let refused = 0;
      for (const [index, arbitrary] of arbitraries.entries()) {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (request) => {
            const before = await rowCounts();
            const answer = await send(request);
            const problems = answerProblems(answer.status, answer.contentType, answer.text);
            if (answer.status >= 400) {
              refused++;
              const after = await rowCounts();
              for (const [table, count] of Object.entries(after)) {
                if (count !== before[table]) problems.push(`${table}: ${before[table]} rows before, ${count} after`);
              }
            }
            if (problems.length > 0) {
              throw new Error(
                `${request.method} ${request.path.slice(0, 300)} (${request.route}; ${request.shape}): ${problems.join("; ")}`,
              );
            }
          }),
          { numRuns: perRoute, seed: SEED + index, endOnFailure: true },
        );
      }
      const total = perRoute * routes.length;
      expect(refused).toBeGreaterThan(0);
      if (process.env.FUZZ_REPORT) {
        process.stdout.write(
          `fuzz: ${total} requests (${perRoute} per route, ${routes.length} routes), seed ${SEED}, ${refused} refused, 0 problems\n`,
        );
      }
    },
    Math.max(120_000, RUNS * 200),
  );
});
