// What other folders (sessions, the agent runtime, experiments) may use of budgets.
export { type BudgetExceeded, budgetExceededError, checkBudgets, recordUsage } from "./usage.js";
