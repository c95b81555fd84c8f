import type { PinnedServerlessTool } from "../../../serverless-tools/index.js";
import { runSafely } from "../define-tool.js";
import { fail } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";
import { callServerlessTool } from "./call-serverless-tool.js";

/**
 * A serverless tool as the model sees it: the version's name, description and input schema. Its side effects are
 * unknown, so it is never read-only. Input is checked to be a JSON object; the endpoint validates the rest.
 */
export function serverlessTool(tool: PinnedServerlessTool): RuntimeTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    origin: "serverless",
    readOnly: false,
    execute: (input, run) =>
      runSafely(tool.name, run, async () => {
        if (input !== undefined && (typeof input !== "object" || input === null || Array.isArray(input))) {
          return fail(`Invalid input for ${tool.name}: expected a JSON object`);
        }
        return callServerlessTool(tool, input ?? {}, run);
      }),
  };
}
