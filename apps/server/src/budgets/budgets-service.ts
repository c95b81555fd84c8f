import type { Budget, BudgetMeter, CreateBudget } from "@agent-platform/contract";
import type { Budget as BudgetRow, Database } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toStoredAmount } from "./meter-units.js";
import { toBudget } from "./serialize.js";
import { type CounterRow, consumption } from "./usage-counters.js";

const ownerOf = (row: BudgetRow) => (row.scope === "agent" ? (row.agentId ?? "") : "");

/** The budgets with their consumption in the current period, read in one query (at most 8 rows per owner). */
async function withUsage(prisma: Database, workspaceId: string, rows: BudgetRow[]): Promise<Budget[]> {
  const now = new Date();
  const counters: CounterRow[] =
    rows.length === 0
      ? []
      : await prisma.usageCounter.findMany({
          where: { workspaceId, agentId: { in: [...new Set(rows.map(ownerOf))] } },
        });
  return rows.map((r) => {
    const budget = { agentId: ownerOf(r), meter: r.meter as BudgetMeter, period: r.period as Budget["period"] };
    return toBudget(r, consumption(counters, budget, now), now);
  });
}

async function agentInWorkspace(prisma: Database, workspaceId: string, agentId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`
    SELECT 1 FROM agents a JOIN projects p ON p."id" = a."projectId"
    WHERE a."id" = ${agentId} AND p."workspaceId" = ${workspaceId}`;
  return rows.length > 0;
}

export async function createBudget(prisma: Database, workspaceId: string, input: CreateBudget): Promise<Budget> {
  if (input.agentId !== undefined && !(await agentInWorkspace(prisma, workspaceId, input.agentId))) {
    throw new AppError("budget.agent_not_found", `Agent ${input.agentId} was not found in this workspace`);
  }
  const row = await prisma.budget.create({
    data: {
      id: newId("budget"),
      workspaceId,
      scope: input.scope,
      agentId: input.agentId ?? null,
      meter: input.meter,
      period: input.period,
      limit: toStoredAmount(input.meter, input.limit),
      action: input.action,
    },
  });
  const [budget] = await withUsage(prisma, workspaceId, [row]);
  return budget!;
}

export async function listBudgets(
  prisma: Database,
  workspaceId: string,
  query: { limit: number; cursor?: string; agentId?: string },
) {
  const filters = { agentId: query.agentId };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.budget.findMany({
    where: {
      workspaceId,
      ...(query.agentId !== undefined ? { agentId: query.agentId } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  const page = pageOf(rows, query.limit, filters, (r) => r.id);
  return { ...page, data: await withUsage(prisma, workspaceId, page.data) };
}

async function budgetOf(prisma: Database, workspaceId: string, id: string) {
  const row = await prisma.budget.findFirst({ where: { id, workspaceId } });
  if (!row) throw notFound("budget.not_found", "Budget", id);
  return row;
}

export async function getBudget(prisma: Database, workspaceId: string, id: string): Promise<Budget> {
  const [budget] = await withUsage(prisma, workspaceId, [await budgetOf(prisma, workspaceId, id)]);
  return budget!;
}

/** Deleting a budget removes the ceiling; the usage counters stay (they are shared by every budget of the meter). */
export async function deleteBudget(prisma: Database, workspaceId: string, id: string): Promise<Budget> {
  const row = await budgetOf(prisma, workspaceId, id);
  const [budget] = await withUsage(prisma, workspaceId, [row]);
  await prisma.budget.deleteMany({ where: { id, workspaceId } });
  return budget!;
}
