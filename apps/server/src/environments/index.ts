// What other folders (execution references of agents, sessions and automations) may use of environments.
export { findEnvironment } from "./environments-service.js";
export { type ExecutionEnvironment, loadExecutionEnvironment } from "./execution-environment.js";
