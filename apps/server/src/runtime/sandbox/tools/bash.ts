import { EXECUTION_RESOURCES } from "@agent-platform/contract";
import { z } from "zod";
import { defineBuiltinTool } from "../../tools/define-tool.js";
import type { RuntimeTool } from "../../tools/types.js";
import type { CodeExecution } from "../code-execution.js";
import { bashText } from "./exec-text.js";
import { runInSandbox } from "./run-in-sandbox.js";

const Input = z
  .object({
    command: z.string().min(1).max(100_000),
    timeoutMs: z.number().int().min(1_000).max(EXECUTION_RESOURCES.timeoutMs.max).optional(),
  })
  .strict();

export function bashTool(execution: CodeExecution): RuntimeTool {
  return defineBuiltinTool({
    name: "bash",
    description:
      "Run a bash command in this session's sandbox. The working folder is /workspace: files there persist across " +
      "calls and turns of the session (processes do not: each call starts fresh). Files you put under " +
      "/workspace/outputs become artifacts of the session at the end of the turn. Usual tools are there (coreutils, " +
      "python3, node, git…); the network is off unless the environment allows some hosts (through HTTP_PROXY). " +
      "Returns the exit code, stdout and stderr (each cut after 30000 characters).",
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string", description: "The bash script to run" },
        timeoutMs: {
          type: "integer",
          minimum: 1_000,
          maximum: EXECUTION_RESOURCES.timeoutMs.max,
          description: "Stop the call after this many milliseconds (at most the environment's timeout)",
        },
      },
      required: ["command"],
      additionalProperties: false,
    },
    input: Input,
    run: (input, run) =>
      runInSandbox(
        execution,
        run,
        { script: input.command, writes: true, ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}) },
        (result) => {
          const { text, isError } = bashText(result);
          return { content: text, isError };
        },
      ),
  });
}
