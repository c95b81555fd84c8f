import type { RuntimeTool } from "../tools/types.js";
import type { CodeExecution } from "./code-execution.js";
import { bashTool } from "./tools/bash.js";
import { fileEditTool, fileListTool, fileReadTool, fileWriteTool } from "./tools/file-tools.js";

const CODE_TOOLS = {
  bash: bashTool,
  file_read: fileReadTool,
  file_write: fileWriteTool,
  file_edit: fileEditTool,
  file_list: fileListTool,
} as const;

export type CodeToolName = keyof typeof CODE_TOOLS;

/** The code-execution tools of a worker process (`bash` and the file tools), each running its calls in its sandboxes. */
export interface CodeTooling {
  tool(name: CodeToolName): RuntimeTool;
}

export function codeTooling(execution: CodeExecution): CodeTooling {
  return { tool: (name) => CODE_TOOLS[name](execution) };
}
