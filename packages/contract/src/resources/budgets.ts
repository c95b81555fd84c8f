import { z } from "zod";
import { idOf, NullableTimestamp, Timestamp } from "../common/fields.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { WorkspaceItemParams } from "./shared.js";

export const BudgetScopeSchema = z.enum(["workspace", "agent"]);
export const BudgetMeterSchema = z
  .enum(["tokens", "model_calls", "sessions", "cost_usd"])
  .describe(
    "`tokens` (input + output), `model_calls`, `sessions` created, or `cost_usd`: the estimated cost of model calls " +
      "in US dollars (counted to the micro-dollar; `limit` and `used` are dollars, e.g. `25.5`)",
  );
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
    limit: z.number().describe("A count, or US dollars for `cost_usd`"),
    period: BudgetPeriodSchema,
    action: BudgetActionSchema,
    used: z.number().describe("Consumption in the current period (US dollars for `cost_usd`)"),
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
    limit: z
      .number()
      // One micro-dollar at least (a count must be a whole number, checked below): positive, as OpenAPI 3.0 can say it.
      .min(0.000001)
      .max(Number.MAX_SAFE_INTEGER)
      .describe("A whole count; for `cost_usd`, US dollars to the micro-dollar (at most 1,000,000,000)"),
    period: BudgetPeriodSchema.default("month"),
    action: BudgetActionSchema,
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.meter === "cost_usd") {
      if (body.limit > 1_000_000_000 || Math.abs(Math.round(body.limit * 1e6) - body.limit * 1e6) > 1e-6 * body.limit) {
        ctx.addIssue({ code: "custom", path: ["limit"], message: "US dollars up to 1e9, to the micro-dollar at most" });
      }
    } else if (!Number.isInteger(body.limit)) {
      ctx.addIssue({ code: "custom", path: ["limit"], message: `a whole number for the ${body.meter} meter` });
    }
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
