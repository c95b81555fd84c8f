/**
 * The `sandbox` capability: the code-execution tools the model calls (`bash`, the file tools), the bubblewrap
 * sandboxes they run in, and the session workspaces behind them. Everything outside this folder uses it from here.
 */
export { type CallCgroup, createCallCgroup, detectCgroups } from "./cgroups.js";
export { CodeExecution, type ExecRequest, type ExecResult, SandboxUnavailable } from "./code-execution.js";
export { type CodeTooling, type CodeToolName, codeTooling } from "./code-tooling.js";
export { runBwrapProbe } from "./run-bwrap-probe.js";
export { readSandboxSettings, type SandboxSettings } from "./sandbox-settings.js";
