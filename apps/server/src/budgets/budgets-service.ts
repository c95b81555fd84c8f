import type { Budget, BudgetMeter, CreateBudget } from "@agent-platform/contract";
import type { Budget as BudgetRow, Database } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toStoredAmount } from "./meter-units.js";
import { toBudget } from "./serialize.js";
import { bucketFor } from "./usage.js";

function counterKey(agentId: string, bucket: string): string {
  return JSON.stringify([agentId, bucket]);
}

function counterOf(row: BudgetRow, now: Date) {
  return {
    agentId: row.scope === "agent" ? (row.agentId ?? "") : "",
    bucket: bucketFor(row.period as Budget["period"], now),
  };
}

type MeterTotals = Record<BudgetMeter, bigint>;

/** The budgets with their consumption in the current period, read in one query. */
async function withUsage(prisma: Database, workspaceId: string, rows: BudgetRow[]): Promise<Budget[]> {
  const now = new Date();
  const counters =
    rows.length === 0
      ? []
      : await prisma.usageCounter.findMany({
          where: { workspaceId, OR: rows.map((r) => counterOf(r, now)) },
        });
  // A counter is the sum of its shards; each row holds every meter.
  const used = new Map<string, MeterTotals>();
  for (const c of counters) {
    const key = counterKey(c.agentId, c.bucket);
    const sum = used.get(key) ?? { tokens: 0n, model_calls: 0n, sessions: 0n, cost_usd: 0n };
    used.set(key, {
      tokens: sum.tokens + c.tokens,
      model_calls: sum.model_calls + c.model_calls,
      sessions: sum.sessions + c.sessions,
      cost_usd: sum.cost_usd + c.cost_usd,
    });
  }
  return rows.map((r) => {
    const c = counterOf(r, now);
    return toBudget(r, used.get(counterKey(c.agentId, c.bucket))?.[r.meter as BudgetMeter] ?? 0n, now);
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
