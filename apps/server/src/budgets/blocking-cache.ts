import type { BudgetMeter } from "@agent-platform/contract";
import type pg from "pg";
import type { AppContext } from "../context.js";
import { cachePerOwner } from "../lib/notified-cache.js";

interface BlockingBudget {
  scope: string;
  agentId: string | null;
  meter: string;
}

/**
 * Which blocking budgets each workspace has (scope, agent, meter; not their consumption), per process, so that work
 * under no blocking budget (the common case: every model call asks) costs no read. A trigger on `budgets` NOTIFYs
 * `budgets` with the workspace id at the commit of any change; the budget routes also drop their own change at once.
 */
const blockingBudgets = cachePerOwner<BlockingBudget[]>("budgets");

/** Whether a blocking budget of the workspace (or of `agentId`) counts one of `meters`. */
export async function mayBlock(
  ctx: Pick<AppContext, "listener">,
  db: Pick<pg.Pool, "query">,
  input: { workspaceId: string; agentId?: string | null; meters: readonly BudgetMeter[] },
): Promise<boolean> {
  const budgets = await blockingBudgets(ctx).get(input.workspaceId, async () => {
    const { rows } = await db.query<BlockingBudget>(
      `SELECT "scope", "agentId", "meter" FROM budgets WHERE "workspaceId" = $1 AND "action" = 'block'`,
      [input.workspaceId],
    );
    return rows;
  });
  return budgets.some(
    (b) =>
      input.meters.includes(b.meter as BudgetMeter) &&
      (b.scope === "workspace" || (input.agentId != null && b.agentId === input.agentId)),
  );
}

/** Drops what this process knows of a workspace's budgets (it just changed them). */
export function forgetBlockingBudgets(ctx: Pick<AppContext, "listener">, workspaceId: string): void {
  blockingBudgets(ctx).forget(workspaceId);
}
