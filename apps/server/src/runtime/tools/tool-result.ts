import type { ToolResult } from "./types.js";

export function ok(content: string): ToolResult {
  return { content, isError: false };
}

export function fail(content: string): ToolResult {
  return { content, isError: true };
}

/** Compact JSON for structured results: models read it well and it stays small. */
export function json(value: unknown): ToolResult {
  return ok(JSON.stringify(value, null, 2));
}
