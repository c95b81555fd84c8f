// What other folders (sessions, the agent runtime, experiments) may use of budgets.
export { MICRO_USD_PER_USD, microUsd } from "./meter-units.js";
export {
  type BudgetExceeded,
  budgetExceededError,
  checkBudgets,
  exceededMessage,
  type Reservation,
  recordUsage,
  recordUsages,
  reserveUsage,
  reserveUsageNow,
  type UsageAmount,
  unbudgetedUsageCtes,
  usageInsertSql,
} from "./usage.js";
