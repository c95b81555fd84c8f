import {
  type CodeExecution,
  type ExecRequest,
  type ExecResult,
  SandboxUnavailable,
} from "../../sandbox/code-execution.js";
import { PackageLayerError } from "../../sandbox/package-layers.js";
import { fail } from "../tool-result.js";
import type { ToolResult, ToolRunContext } from "../types.js";

/** Runs a tool's call in the sandbox; an unavailable sandbox or a failed package install is a readable tool error. */
export async function runInSandbox(
  execution: CodeExecution,
  run: ToolRunContext,
  request: ExecRequest,
  present: (result: ExecResult) => ToolResult,
): Promise<ToolResult> {
  try {
    const result = await execution.run(run.session, run.agent, request, run.signal);
    return present(result);
  } catch (error) {
    if (error instanceof SandboxUnavailable || error instanceof PackageLayerError) return fail(error.message);
    throw error;
  }
}
