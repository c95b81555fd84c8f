import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { raceAbort } from "../../lib/abort.js";

const MAX_LIST_PAGES = 100;

/** Resolves with `promise`, or with "aborted" as soon as `signal` aborts (the promise is abandoned). */
export function waitOrAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | "aborted"> {
  if (!signal) return promise;
  return raceAbort(promise, signal).catch((error: unknown) => {
    if (signal.aborted && error === signal.reason) return "aborted" as const;
    throw error;
  });
}

export async function listAllTools(
  client: Client,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, {
      timeout: timeoutMs,
      ...(signal ? { signal } : {}),
    });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/**
 * A tool that declares `execution.taskSupport: "required"` only runs as an MCP task (a `tools/call` answered with a
 * task to poll), which the platform does not implement: a plain call always fails (`-32601 … requires task
 * augmentation`), so such tools are not offered to the model. `"optional"` tools are called plainly.
 */
export function runsWithoutTasks(tool: Tool): boolean {
  return tool.execution?.taskSupport !== "required";
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
