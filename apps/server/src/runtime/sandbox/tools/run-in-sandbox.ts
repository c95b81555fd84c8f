import { fail } from "../../tools/tool-result.js";
import type { ToolResult, ToolRunContext } from "../../tools/types.js";
import { type CodeExecution, type ExecRequest, type ExecResult, SandboxUnavailable } from "../code-execution.js";
import { PackageLayerError } from "../package-layers.js";

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
