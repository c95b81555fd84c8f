import { RE2JS } from "re2js";

/**
 * Regex scorer patterns run on RE2 (re2js, a pure JavaScript port): matching takes time linear in the output, so a
 * catastrophic pattern such as `(a+)+$` cannot stall a worker. RE2 has no backreferences or lookaround; such a
 * pattern is refused at creation with RE2's own reason.
 */
export function compileScorerRegex(pattern: string, flags = ""): RE2JS {
  let bits = 0;
  if (flags.includes("i")) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("m")) bits |= RE2JS.MULTILINE;
  if (flags.includes("s")) bits |= RE2JS.DOTALL;
  return RE2JS.compile(pattern, bits);
}

/** Why a pattern cannot be used, or null when it compiles. */
export function regexProblem(pattern: string, flags?: string): string | null {
  try {
    compileScorerRegex(pattern, flags);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
