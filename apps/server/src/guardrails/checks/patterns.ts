import type { GuardrailPatternSchema } from "@agent-platform/contract";
import { RE2JS } from "re2js";
import type { z } from "zod";
import { LruCache } from "../../lib/lru-cache.js";
import type { Finding } from "../findings.js";

type Pattern = z.infer<typeof GuardrailPatternSchema>;

/** Compiled patterns by text (agent versions are immutable, so their patterns repeat on every turn). */
const compiled = new LruCache<string, RE2JS>({ maxEntries: 512, maxWeight: 512 });

/**
 * A guardrail's own pattern on RE2 (re2js): matching takes linear time, so a pattern from an agent's configuration
 * cannot stall a worker on a hostile tool result. Refused at write time with RE2's reason when it does not compile.
 */
export function compileGuardrailPattern(pattern: string, flags = ""): RE2JS {
  const key = `${flags}/${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    let bits = 0;
    if (flags.includes("i")) bits |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes("s")) bits |= RE2JS.DOTALL;
    regex = RE2JS.compile(pattern, bits);
    compiled.set(key, regex);
  }
  return regex;
}

export function findPatterns(patterns: readonly Pattern[], text: string): Finding[] {
  const found: Finding[] = [];
  for (const { name, pattern, flags } of patterns) {
    const matcher = compileGuardrailPattern(pattern, flags).matcher(text);
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (end > start) found.push({ start, end, kind: name });
    }
  }
  return found;
}
