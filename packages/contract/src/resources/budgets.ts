import { z } from "zod";
import { idOf, NullableTimestamp, Timestamp } from "../common/fields.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { WorkspaceItemParams } from "./shared.js";

export const BudgetScopeSchema = z.enum(["workspace", "agent"]);
export const BudgetMeterSchema = z
  .enum(["tokens", "model_calls", "sessions"])
  .describe("`tokens` (input + output), `model_calls`, or `sessions` created");
export const BudgetPeriodSchema = z.enum(["day", "month", "total"]).describe("Calendar period in UTC, or `total`");
export const BudgetActionSchema = z
  .enum(["block", "notify"])
  .describe("`block` refuses new sessions and experiments once `used` reaches `limit`; `notify` only reports it");

const AgentId = z
  .string()
  .max(64)
  .regex(/^agent_[0-9a-z]+$/, "an `agent_` id");

export const BudgetSchema = z
  .object({
    id: idOf("budget"),
    workspaceId: idOf("ws"),
    scope: BudgetScopeSchema,
    agentId: z.string().nullable(),
    meter: BudgetMeterSchema,
    limit: z.number().int(),
    period: BudgetPeriodSchema,
    action: BudgetActionSchema,
    used: z.number().int().describe("Consumption in the current period"),
    exceeded: z.boolean().describe("`used` has reached `limit`"),
    resetsAt: NullableTimestamp.describe("When the current period ends (null for `total`)"),
    createdAt: Timestamp,
  })
  .describe("Budget: a consumption ceiling for the workspace or one agent");

export const CreateBudgetSchema = z
  .object({
    scope: BudgetScopeSchema,
    agentId: AgentId.optional().describe("Required when `scope` is `agent`, refused otherwise"),
    meter: BudgetMeterSchema,
    limit: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    period: BudgetPeriodSchema.default("month"),
    action: BudgetActionSchema,
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.scope === "agent" && body.agentId === undefined) {
      ctx.addIssue({ code: "custom", path: ["agentId"], message: "required when scope is `agent`" });
    }
    if (body.scope === "workspace" && body.agentId !== undefined) {
      ctx.addIssue({ code: "custom", path: ["agentId"], message: "only allowed when scope is `agent`" });
    }
  });

export const BudgetListQuery = PageQuerySchema.extend({
  agentId: AgentId.optional().describe("Only the budgets of this agent"),
});

export const budgetsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/budgets",
      body: CreateBudgetSchema,
      responses: { 201: BudgetSchema },
      summary: "Create a budget (admin key)",
    },
    list: {
      method: "GET",
      path: "/v1/budgets",
      query: BudgetListQuery,
      responses: { 200: cursorPage(BudgetSchema) },
      summary: "List the workspace's budgets with current consumption (admin key)",
    },
    get: {
      method: "GET",
      path: "/v1/budgets/:id",
      pathParams: WorkspaceItemParams,
      responses: { 200: BudgetSchema },
      summary: "Get a budget with current consumption (admin key)",
    },
    delete: {
      method: "DELETE",
      path: "/v1/budgets/:id",
      pathParams: WorkspaceItemParams,
      responses: { 200: BudgetSchema },
      summary: "Delete a budget (admin key); returns the deleted budget",
    },
  },
  routerOptions,
);

export type Budget = z.infer<typeof BudgetSchema>;
export type CreateBudget = z.infer<typeof CreateBudgetSchema>;
export type BudgetMeter = z.infer<typeof BudgetMeterSchema>;
export type BudgetPeriod = z.infer<typeof BudgetPeriodSchema>;
