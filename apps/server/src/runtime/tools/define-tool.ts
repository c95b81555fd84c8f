import { BUILTIN_TOOLS, type BuiltinToolName } from "@agent-platform/contract";
import type { z } from "zod";
import { AppError } from "../../http/app-error.js";
import { fail } from "./tool-result.js";
import type { RuntimeTool, ToolResult, ToolRunContext } from "./types.js";

export interface BuiltinToolSpec<S extends z.ZodTypeAny> {
  name: BuiltinToolName;
  description: string;
  /** JSON Schema shown to the model; `input` is the authoritative check. */
  inputSchema: Record<string, unknown>;
  input: S;
  run(input: z.output<S>, run: ToolRunContext): Promise<ToolResult>;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "input"}: ${issue.message}`)
    .join("; ");
}

/**
 * Wraps a tool's logic so `execute` never throws: bad input, domain errors and unexpected failures all become an
 * `isError` result the model can read. Unexpected errors are logged with the tool use id and not shown verbatim (they
 * may carry internals such as SQL).
 */
export async function runSafely(
  name: string,
  run: ToolRunContext,
  body: () => Promise<ToolResult>,
): Promise<ToolResult> {
  if (run.signal.aborted) return fail(`${name} was not run: the turn was interrupted`);
  try {
    return await body();
  } catch (error) {
    if (error instanceof AppError) return fail(error.message);
    if (run.signal.aborted) return fail(`${name} was interrupted`);
    run.ctx.logger.error(
      { err: error, tool: name, toolUseId: run.toolUseId, sessionId: run.session.id },
      "tool failed",
    );
    return fail(`${name} failed because of an internal error`);
  }
}

export function defineBuiltinTool<S extends z.ZodTypeAny>(spec: BuiltinToolSpec<S>): RuntimeTool {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    origin: "builtin",
    readOnly: BUILTIN_TOOLS[spec.name].readOnly,
    execute: (input, run) =>
      runSafely(spec.name, run, async () => {
        const parsed = spec.input.safeParse(input ?? {});
        if (!parsed.success) return fail(`Invalid input for ${spec.name}: ${describeIssues(parsed.error)}`);
        return spec.run(parsed.data, run);
      }),
  };
}
