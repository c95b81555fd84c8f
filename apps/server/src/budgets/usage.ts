import type { BudgetExceededDetailsSchema, BudgetMeter, BudgetPeriod } from "@agent-platform/contract";
import type pg from "pg";
import type { z } from "zod";
import { AppError } from "../http/app-error.js";

// Consumption counters and budget checks, for the areas that consume (sessions, experiments, model calls).
// Counters live in usage_counters, one row per (workspace, agent, meter, bucket); agentId "" is the workspace row.

type Queryable = Pick<pg.Pool, "query">;
export type BudgetExceeded = z.infer<typeof BudgetExceededDetailsSchema>;

/** The counter bucket of a period at `now` (UTC): "total", "YYYY-MM" or "YYYY-MM-DD". */
export function bucketFor(period: BudgetPeriod, now: Date = new Date()): string {
  const iso = now.toISOString();
  return period === "total" ? "total" : period === "month" ? iso.slice(0, 7) : iso.slice(0, 10);
}

/** When the current period ends (UTC); null for `total`. */
export function periodEnd(period: BudgetPeriod, now: Date = new Date()): Date | null {
  if (period === "total") return null;
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return period === "month" ? new Date(Date.UTC(y, m + 1, 1)) : new Date(Date.UTC(y, m, now.getUTCDate() + 1));
}

/**
 * Adds `amount` to the meter's counters of the workspace and, when given, of the agent, for the three buckets
 * (total, month, day) in one statement. Rows are always locked in the same order, so concurrent calls cannot deadlock.
 */
export async function recordUsage(
  pool: Queryable,
  input: { workspaceId: string; agentId?: string | null; meter: BudgetMeter; amount: number; now?: Date },
): Promise<void> {
  if (!Number.isSafeInteger(input.amount) || input.amount < 0) {
    throw new Error(`recordUsage: amount must be a non-negative integer, got ${input.amount}`);
  }
  if (input.amount === 0) return;
  const now = input.now ?? new Date();
  const owners = input.agentId ? ["", input.agentId] : [""];
  const buckets = [bucketFor("total", now), bucketFor("month", now), bucketFor("day", now)];
  const params: unknown[] = [input.workspaceId, input.meter, input.amount];
  const values: string[] = [];
  for (const owner of owners) {
    for (const bucket of buckets) {
      params.push(owner, bucket);
      values.push(`($1, $${params.length - 1}, $2, $${params.length}, $3::bigint, now())`);
    }
  }
  await pool.query(
    `INSERT INTO usage_counters ("workspaceId", "agentId", "meter", "bucket", "used", "updatedAt")
     VALUES ${values.join(", ")}
     ON CONFLICT ("workspaceId", "agentId", "meter", "bucket")
     DO UPDATE SET "used" = usage_counters."used" + EXCLUDED."used", "updatedAt" = now()`,
    params,
  );
}

const CHECK_SQL = `
SELECT b."scope", b."meter", b."limit"::text AS "limit", COALESCE(u."used", 0)::text AS "used"
FROM budgets b
LEFT JOIN usage_counters u
  ON u."workspaceId" = b."workspaceId"
 AND u."agentId" = CASE WHEN b."scope" = 'agent' THEN b."agentId" ELSE '' END
 AND u."meter" = b."meter"
 AND u."bucket" = CASE b."period" WHEN 'day' THEN $3 WHEN 'month' THEN $4 ELSE 'total' END
WHERE b."workspaceId" = $1
  AND b."action" = 'block'
  AND b."meter" = ANY($5::text[])
  AND (b."scope" = 'workspace' OR b."agentId" = $2)
  AND COALESCE(u."used", 0) >= b."limit"
ORDER BY (b."scope" = 'workspace') DESC, b."id"
LIMIT 1`;

/**
 * The first blocking budget of the workspace (or of the agent, when given) on one of `meters` whose consumption in the
 * current period has reached its limit; null when new work may start. Workspace budgets are reported first.
 */
export async function checkBudgets(
  pool: Queryable,
  input: { workspaceId: string; agentId?: string | null; meters: readonly BudgetMeter[]; now?: Date },
): Promise<BudgetExceeded | null> {
  if (input.meters.length === 0) return null;
  const now = input.now ?? new Date();
  const { rows } = await pool.query<{ scope: "workspace" | "agent"; meter: string; limit: string; used: string }>(
    CHECK_SQL,
    [input.workspaceId, input.agentId ?? null, bucketFor("day", now), bucketFor("month", now), [...input.meters]],
  );
  const row = rows[0];
  return row ? { scope: row.scope, meter: row.meter, limit: Number(row.limit), used: Number(row.used) } : null;
}

/** The 403 `budget.exceeded` error for a result of checkBudgets, with the details the spec documents. */
export function budgetExceededError(exceeded: BudgetExceeded): AppError {
  const owner = exceeded.scope === "workspace" ? "The workspace" : "This agent";
  return new AppError(
    "budget.exceeded",
    `${owner} has used ${exceeded.used} of its ${exceeded.limit} ${exceeded.meter} budget for the period`,
    { ...exceeded },
  );
}
