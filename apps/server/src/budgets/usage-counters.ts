import type { BudgetMeter, BudgetPeriod } from "@agent-platform/contract";

// The layout of usage_counters, owned here: per (workspace, agent, shard) one row holding, per meter, the total and the
// counts of the row's current month and day (UTC), in columns `<meter>_<period>`; agentId "" is the workspace's row.
// Only the current periods are kept (budgets read nothing else; usage history is served from the session logs).

/** Shards per owner: concurrent writers pick one at random, so they rarely wait on each other's row. */
export const USAGE_SHARDS = 8;

export interface UsageAmount {
  meter: BudgetMeter;
  /** A non-negative integer; a settlement may be negative (an estimate corrected down). */
  amount: number;
}

export interface UsageInput {
  workspaceId: string;
  agentId?: string | null;
  usages: readonly UsageAmount[];
  /** When the usage happened: the month and day it counts in. */
  now?: Date;
}

/** The counters' meters, in a fixed order. */
const METERS = ["tokens", "model_calls", "sessions", "cost_usd"] as const satisfies readonly BudgetMeter[];
const PERIODS = ["total", "month", "day"] as const satisfies readonly BudgetPeriod[];

/** The column counting `meter` in `period`. */
export const countColumn = (meter: BudgetMeter, period: BudgetPeriod) => `${meter}_${period}` as const;

const COUNT_COLUMNS = METERS.flatMap((m) => PERIODS.map((p) => countColumn(m, p)));

/** The first day (UTC) of the month or day `now` is in, as an SQL date ("YYYY-MM-DD"). */
export function periodStart(period: "month" | "day", now: Date): string {
  const day = now.toISOString().slice(0, 10);
  return period === "month" ? `${day.slice(0, 8)}01` : day;
}

export const USAGE_COLUMNS = `("workspaceId", "agentId", "shard", "month", "day", ${COUNT_COLUMNS.map((c) => `"${c}"`).join(", ")}, "updatedAt")`;

/**
 * A row met again: the totals add; a period's count adds when the write is of the row's period, starts afresh when the
 * write is of a newer one (the row's period moves forward, every meter's count of it restarting), and is left alone
 * when the write is of an older one (a late write counts in the total, and in the month when it is the row's).
 */
const sinceOlder = (period: "month" | "day", column: string) =>
  `CASE WHEN EXCLUDED."${period}" = usage_counters."${period}" THEN usage_counters."${column}" + EXCLUDED."${column}"
    WHEN EXCLUDED."${period}" > usage_counters."${period}" THEN EXCLUDED."${column}"
    ELSE usage_counters."${column}" END`;

export const USAGE_CONFLICT = `ON CONFLICT ("workspaceId", "agentId", "shard") DO UPDATE SET
  "month" = GREATEST(usage_counters."month", EXCLUDED."month"), "day" = GREATEST(usage_counters."day", EXCLUDED."day"),
  ${METERS.map(
    (m) =>
      `"${countColumn(m, "total")}" = usage_counters."${countColumn(m, "total")}" + EXCLUDED."${countColumn(m, "total")}",
  "${countColumn(m, "month")}" = ${sinceOlder("month", countColumn(m, "month"))},
  "${countColumn(m, "day")}" = ${sinceOlder("day", countColumn(m, "day"))}`,
  ).join(",\n  ")},
  "updatedAt" = now()`;

/**
 * The counter rows of some usage as a VALUES list whose values are pushed onto `params` (placeholders numbered after
 * what is there already); null when there is nothing to add. One row per owner holds every meter's amount (in each of
 * its periods); one random shard for the whole statement, and the rows in a fixed order (the workspace's before the
 * agent's), so concurrent statements lock them in the same order.
 */
export function usageRows(input: UsageInput, params: unknown[]): string | null {
  const amounts = new Map<BudgetMeter, number>();
  for (const u of input.usages) {
    if (!Number.isSafeInteger(u.amount)) throw new Error(`recordUsage: amount must be an integer, got ${u.amount}`);
    amounts.set(u.meter, (amounts.get(u.meter) ?? 0) + u.amount);
  }
  if (![...amounts.values()].some((amount) => amount !== 0)) return null;
  const now = input.now ?? new Date();
  const at = (value: unknown) => `$${params.push(value)}`;
  const workspace = at(input.workspaceId);
  const shard = `${at(Math.floor(Math.random() * USAGE_SHARDS))}::smallint`;
  const periods = `${at(periodStart("month", now))}::date, ${at(periodStart("day", now))}::date`;
  const counts = METERS.map((m) => {
    const amount = `${at(amounts.get(m) ?? 0)}::bigint`;
    return PERIODS.map(() => amount).join(", ");
  }).join(", ");
  const owners = (input.agentId ? ["", input.agentId] : [""]).map(at);
  return owners.map((owner) => `(${workspace}, ${owner}, ${shard}, ${periods}, ${counts}, now())`).join(", ");
}

/**
 * SQL: the consumption, in the budget row `b`'s period, of its meter by its owner, summed over the owner's shards
 * (`$day` and `$month` the placeholders of the current day's and month's `periodStart`): a shard whose month or day is
 * another than the current one counts nothing for that period.
 */
export const consumptionSql = (b: string, day: string, month: string) => `
  (SELECT COALESCE(sum(CASE ${b}."meter" || '_' || ${b}."period" ${COUNT_COLUMNS.map((c) => `WHEN '${c}' THEN u."${c}"`).join(" ")} END), 0)
    FROM usage_counters u
    WHERE u."workspaceId" = ${b}."workspaceId"
      AND u."agentId" = CASE WHEN ${b}."scope" = 'agent' THEN ${b}."agentId" ELSE '' END
      AND CASE ${b}."period" WHEN 'day' THEN u."day" = ${day}::date WHEN 'month' THEN u."month" = ${month}::date
        ELSE true END)`;

/** A counter row as Prisma reads it. */
export type CounterRow = { agentId: string; month: Date; day: Date } & Record<ReturnType<typeof countColumn>, bigint>;

/** What `consumptionSql` computes, over counter rows already read. */
export function consumption(
  rows: readonly CounterRow[],
  budget: { agentId: string; meter: BudgetMeter; period: BudgetPeriod },
  now: Date,
): bigint {
  const current = budget.period === "total" ? null : periodStart(budget.period, now);
  let used = 0n;
  for (const row of rows) {
    if (row.agentId !== budget.agentId) continue;
    if (current !== null && row[budget.period as "month" | "day"].toISOString().slice(0, 10) !== current) continue;
    used += row[countColumn(budget.meter, budget.period)];
  }
  return used;
}
