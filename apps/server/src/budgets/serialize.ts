import type { Budget } from "@agent-platform/contract";
import type { Budget as BudgetRow } from "@agent-platform/db";
import { toShownAmount } from "./meter-units.js";
import { periodEnd } from "./usage.js";

export function toBudget(row: BudgetRow, used: bigint, now: Date): Budget {
  const period = row.period as Budget["period"];
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    scope: row.scope as Budget["scope"],
    agentId: row.agentId,
    meter: row.meter as Budget["meter"],
    limit: toShownAmount(row.meter, row.limit),
    period,
    action: row.action as Budget["action"],
    used: toShownAmount(row.meter, used),
    exceeded: used >= row.limit,
    resetsAt: periodEnd(period, now)?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
