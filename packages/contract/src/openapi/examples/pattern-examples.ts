import { isObject, type Json } from "../json.js";

/**
 * Values for patterns the sampler cannot satisfy on its own (it produces strings that do not match these). Set as the
 * schema's `example`, which samplers and documentation renderers both use.
 */
const PATTERN_EXAMPLES: Record<string, string> = {
  "^[a-z][a-z0-9-]*\\/\\S+$": "openai/gpt-4.1-mini",
  "^[a-z0-9]+(-[a-z0-9]+)*$": "researcher",
  "^[A-Za-z0-9._-]+(\\/[A-Za-z0-9._-]+)*$": "notes/summary.md",
};

export function addPatternExamples(node: Json | undefined): void {
  if (Array.isArray(node)) for (const n of node) addPatternExamples(n);
  if (!isObject(node)) return;
  if (typeof node.pattern === "string" && node.example === undefined && PATTERN_EXAMPLES[node.pattern]) {
    node.example = PATTERN_EXAMPLES[node.pattern]!;
  }
  for (const [key, value] of Object.entries(node))
    if (key !== "example" && key !== "examples") addPatternExamples(value);
}
