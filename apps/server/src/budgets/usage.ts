import type { BudgetExceededDetailsSchema, BudgetMeter, BudgetPeriod } from "@agent-platform/contract";
import type pg from "pg";
import type { z } from "zod";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { inTransaction } from "../lib/transaction.js";
import { mayBlock } from "./blocking-cache.js";
import { toShownAmount } from "./meter-units.js";
import {
  consumptionSql,
  periodStart,
  USAGE_COLUMNS,
  USAGE_CONFLICT,
  type UsageAmount,
  type UsageInput,
  usageRows,
} from "./usage-counters.js";

// Consumption counters and budget checks, for the areas that consume (sessions, experiments, model calls).
// Counters live in usage_counters (usage-counters.ts): per (workspace, agent) a few shards, each row holding every
// meter's total and counts of the current month and day; agentId "" is the workspace's row.

export type { UsageAmount } from "./usage-counters.js";

type Queryable = Pick<pg.Pool, "query">;
export type BudgetExceeded = z.infer<typeof BudgetExceededDetailsSchema>;

/** When the current period ends (UTC); null for `total`. */
export function periodEnd(period: BudgetPeriod, now: Date = new Date()): Date | null {
  if (period === "total") return null;
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return period === "month" ? new Date(Date.UTC(y, m + 1, 1)) : new Date(Date.UTC(y, m, now.getUTCDate() + 1));
}

/**
 * Adds usage to the meters' counters of the workspace and, when given, of the agent (their totals and their counts of
 * `now`'s month and day), in one statement: one row per owner, whatever the meters (at most 2). The rows go to a
 * random shard: no hot row however many sessions are created at once. Rows are locked in one order, so concurrent
 * calls cannot deadlock.
 */
export async function recordUsage(
  pool: Queryable,
  input: { workspaceId: string; agentId?: string | null; meter: BudgetMeter; amount: number; now?: Date },
): Promise<void> {
  await recordUsages(pool, { ...input, usages: [{ meter: input.meter, amount: input.amount }] });
}

/** Several meters at once (one statement). */
export async function recordUsages(pool: Queryable, input: UsageInput): Promise<void> {
  const params: unknown[] = [];
  const rows = usageRows(input, params);
  if (!rows) return;
  await pool.query(`INSERT INTO usage_counters ${USAGE_COLUMNS} VALUES ${rows} ${USAGE_CONFLICT}`, params);
}

/**
 * For a statement that consumes only when no budget could refuse it: `guard` is a CTE (`unbudgeted`, one boolean
 * column `free`) true when no blocking budget of the workspace or the agent counts any of `meters`; `upsert` a CTE
 * (`counted`) that records the usage only then. The caller gates its own writes on `unbudgeted.free` and, when it is
 * false, takes the path that locks and checks the budgets (`reserveUsage`). Values go onto `params`.
 */
export function unbudgetedUsageCtes(
  input: {
    workspaceId: string;
    agentId?: string | null;
    usages: readonly UsageAmount[];
    meters: readonly BudgetMeter[];
  },
  params: unknown[],
  /** A further condition (SQL) the statement's writes need: when it does not hold, nothing is counted either. */
  alsoRequired?: string,
): string {
  const at = (value: unknown) => `$${params.push(value)}`;
  const guard = `unbudgeted AS (
    SELECT NOT EXISTS (SELECT 1 FROM budgets b WHERE b."workspaceId" = ${at(input.workspaceId)} AND b."action" = 'block'
      AND b."meter" = ANY(${at([...input.meters])}::text[])
      AND (b."scope" = 'workspace' OR b."agentId" = ${at(input.agentId ?? null)}))
      ${alsoRequired ? `AND ${alsoRequired}` : ""} AS "free"
  )`;
  const insert = usageInsertSql(input, params, `(SELECT "free" FROM unbudgeted)`);
  return insert ? `${guard}, counted AS (${insert})` : guard;
}

/**
 * The statement that adds some usage (as `recordUsages` does) when `gate` (an SQL boolean, e.g. whether another part
 * of the statement wrote anything) holds, to place in a CTE of a larger statement; null when there is nothing to add.
 * Values go onto `params`.
 */
export function usageInsertSql(input: UsageInput, params: unknown[], gate: string): string | null {
  const rows = usageRows(input, params);
  if (!rows) return null;
  return `INSERT INTO usage_counters ${USAGE_COLUMNS}
    SELECT v.* FROM (VALUES ${rows}) AS v WHERE ${gate}
    ${USAGE_CONFLICT}`;
}

/** Blocking budgets of the workspace (and the agent) on some meters, with their consumption in the current period. */
const BLOCKING_SQL = (lock: boolean) => `
SELECT b."id", b."scope", b."meter", b."limit"::text AS "limit", ${consumptionSql("b", "$3", "$4")}::text AS "used"
FROM budgets b
WHERE b."workspaceId" = $1
  AND b."action" = 'block'
  AND b."meter" = ANY($5::text[])
  AND (b."scope" = 'workspace' OR b."agentId" = $2)
  ${lock ? 'AND b."id" = ANY($6::text[])' : ""}
ORDER BY (b."scope" = 'workspace') DESC, b."id"`;

interface BlockingRow {
  id: string;
  scope: "workspace" | "agent";
  meter: BudgetMeter;
  limit: string;
  used: string;
}

async function blockingBudgets(
  db: Queryable,
  input: { workspaceId: string; agentId?: string | null; meters: readonly BudgetMeter[]; now?: Date },
  lockIds?: string[],
): Promise<BlockingRow[]> {
  if (input.meters.length === 0) return [];
  const now = input.now ?? new Date();
  if (lockIds) {
    // Locks the budgets first (in id order: no deadlock), then reads the counters in a statement of its own, which
    // sees every reservation committed before the lock was granted.
    await db.query(`SELECT 1 FROM budgets WHERE "id" = ANY($1::text[]) ORDER BY "id" FOR UPDATE`, [lockIds]);
  }
  const params = [input.workspaceId, input.agentId ?? null, periodStart("day", now), periodStart("month", now)];
  const { rows } = await db.query<BlockingRow>(BLOCKING_SQL(lockIds !== undefined), [
    ...params,
    [...input.meters],
    ...(lockIds ? [lockIds] : []),
  ]);
  return rows;
}

const toExceeded = (row: BlockingRow): BudgetExceeded => ({
  scope: row.scope,
  meter: row.meter,
  limit: toShownAmount(row.meter, row.limit),
  used: toShownAmount(row.meter, row.used),
});

/**
 * The first blocking budget of the workspace (or of the agent, when given) on one of `meters` whose consumption in the
 * current period has reached its limit; null when new work may start. Workspace budgets are reported first. A check
 * only: work that consumes goes through `reserveUsage`.
 */
export async function checkBudgets(
  pool: Queryable,
  input: { workspaceId: string; agentId?: string | null; meters: readonly BudgetMeter[]; now?: Date },
): Promise<BudgetExceeded | null> {
  const rows = await blockingBudgets(pool, input);
  const row = rows.find((r) => BigInt(r.used) >= BigInt(r.limit));
  return row ? toExceeded(row) : null;
}

/**
 * Reserves consumption before the work, in the caller's transaction (`client`), without overshoot: the blocking budgets
 * on the reserved meters are locked (only those: work under no budget locks nothing), their consumption is read, and
 * the usage is recorded only when every reserved amount fits (`used + amount <= limit`) and no budget on a `checked`
 * meter has been reached; otherwise nothing is written and the exceeded budget is returned (the caller ends its
 * transaction). The locks serialise only the work counted by one blocking budget, until the caller commits.
 */
export async function reserveUsage(
  client: Queryable,
  input: {
    workspaceId: string;
    agentId?: string | null;
    reserve: readonly UsageAmount[];
    /** Meters that must not have reached a blocking limit, without reserving anything on them. */
    check?: readonly BudgetMeter[];
    now?: Date;
  },
): Promise<BudgetExceeded | null> {
  const reserved = new Map(input.reserve.map((u) => [u.meter, u.amount]));
  const meters = [...new Set([...reserved.keys(), ...(input.check ?? [])])];
  const scope = { workspaceId: input.workspaceId, agentId: input.agentId, meters, now: input.now };
  let rows = await blockingBudgets(client, scope);
  const toLock = rows.filter((r) => reserved.has(r.meter)).map((r) => r.id);
  if (toLock.length > 0) {
    const locked = await blockingBudgets(client, scope, toLock);
    rows = [...locked, ...rows.filter((r) => !reserved.has(r.meter))];
  }
  for (const row of rows) {
    const amount = BigInt(reserved.get(row.meter) ?? 0);
    const over = reserved.has(row.meter)
      ? BigInt(row.used) + amount > BigInt(row.limit)
      : BigInt(row.used) >= BigInt(row.limit);
    if (over) return toExceeded(row);
  }
  await recordUsages(client, {
    workspaceId: input.workspaceId,
    agentId: input.agentId,
    usages: input.reserve,
    now: input.now,
  });
  return null;
}

/** "The workspace has used 12 of its 10 tokens budget for the period" (dollars for `cost_usd`). */
export function exceededMessage(exceeded: BudgetExceeded): string {
  const owner = exceeded.scope === "workspace" ? "The workspace" : "This agent";
  return exceeded.meter === "cost_usd"
    ? `${owner} has used US$${exceeded.used} of its US$${exceeded.limit} cost budget for the period`
    : `${owner} has used ${exceeded.used} of its ${exceeded.limit} ${exceeded.meter} budget for the period`;
}

/** The 403 `budget.exceeded` error for a result of checkBudgets, with the details the spec documents. */
export function budgetExceededError(exceeded: BudgetExceeded): AppError {
  return new AppError("budget.exceeded", exceededMessage(exceeded), { ...exceeded });
}

/** What `reserveUsageNow` did: `recorded` when the reserved usage is already counted (settle only the difference). */
export interface Reservation {
  exceeded: BudgetExceeded | null;
  recorded: boolean;
}

/**
 * `reserveUsage` in a transaction of its own, for work outside any (a model call): when no blocking budget counts the
 * reserved meters, nothing is locked or written (no read at all when the process knows the workspace has none; the caller records the usage after the work, as it would
 * anyway); otherwise the reservation is recorded now, and the caller records only the difference with the actual
 * usage afterwards.
 */
export async function reserveUsageNow(
  ctx: Pick<AppContext, "db" | "listener">,
  input: Parameters<typeof reserveUsage>[1],
): Promise<Reservation> {
  const { pool } = ctx.db;
  const reserved = new Set(input.reserve.map((u) => u.meter));
  const meters = [...new Set([...reserved, ...(input.check ?? [])])];
  const scope = { workspaceId: input.workspaceId, agentId: input.agentId, meters };
  if (!(await mayBlock(ctx, pool, scope))) return { exceeded: null, recorded: false };
  const rows = await blockingBudgets(pool, { ...input, meters });
  if (!rows.some((r) => reserved.has(r.meter))) {
    const row = rows.find((r) => BigInt(r.used) >= BigInt(r.limit));
    return { exceeded: row ? toExceeded(row) : null, recorded: false };
  }
  const exceeded = await inTransaction(pool, (client) => reserveUsage(client, input));
  return { exceeded, recorded: exceeded === null };
}
