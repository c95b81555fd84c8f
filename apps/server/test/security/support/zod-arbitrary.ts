import fc from "fast-check";
import { z } from "zod";

/**
 * fast-check arbitraries from the contract's Zod schemas: values shaped like what each route accepts, biased towards
 * the schema's boundaries (empty, min, max lengths and values). Refinements are not modelled: callers keep the samples
 * `schema.safeParse` accepts when they need valid input, and use the rest as near-valid input.
 *
 * Hand-written on purpose: `zod-fast-check` (the one package for this) requires fast-check < 4 and does not bias
 * towards boundaries, which is what finds the bugs here.
 */
export function arbitraryOf(schema: z.ZodTypeAny, depth = 0): fc.Arbitrary<unknown> {
  const def = schema._def as { typeName: string } & Record<string, unknown>;
  if (depth > 8) return fc.constant(undefined);
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodString:
      return stringOf(def.checks as StringCheck[]);
    case z.ZodFirstPartyTypeKind.ZodNumber:
      return numberOf(def.checks as NumberCheck[]);
    case z.ZodFirstPartyTypeKind.ZodBoolean:
      return fc.boolean();
    case z.ZodFirstPartyTypeKind.ZodLiteral:
      return fc.constant(def.value);
    case z.ZodFirstPartyTypeKind.ZodEnum:
      return fc.constantFrom(...(def.values as string[]));
    case z.ZodFirstPartyTypeKind.ZodNativeEnum:
      return fc.constantFrom(...Object.values(def.values as object));
    case z.ZodFirstPartyTypeKind.ZodOptional:
      return fc.option(arbitraryOf(def.innerType as z.ZodTypeAny, depth), { nil: undefined, freq: 3 });
    case z.ZodFirstPartyTypeKind.ZodNullable:
      return fc.option(arbitraryOf(def.innerType as z.ZodTypeAny, depth), { nil: null, freq: 4 });
    case z.ZodFirstPartyTypeKind.ZodDefault:
      return fc.option(arbitraryOf(def.innerType as z.ZodTypeAny, depth), { nil: undefined, freq: 2 });
    case z.ZodFirstPartyTypeKind.ZodEffects:
      return arbitraryOf(def.schema as z.ZodTypeAny, depth);
    case z.ZodFirstPartyTypeKind.ZodPipeline:
      return arbitraryOf(def.in as z.ZodTypeAny, depth);
    case z.ZodFirstPartyTypeKind.ZodLazy:
      return arbitraryOf((def.getter as () => z.ZodTypeAny)(), depth + 1);
    case z.ZodFirstPartyTypeKind.ZodBranded:
      return arbitraryOf(def.type as z.ZodTypeAny, depth);
    case z.ZodFirstPartyTypeKind.ZodArray: {
      const min = (def.minLength as { value: number } | null)?.value ?? 0;
      const max = Math.min((def.maxLength as { value: number } | null)?.value ?? min + 3, min + 3);
      return fc.array(arbitraryOf(def.type as z.ZodTypeAny, depth + 1), { minLength: min, maxLength: max });
    }
    case z.ZodFirstPartyTypeKind.ZodObject: {
      const shape = (schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
      const entries = Object.entries(shape).map(([key, value]) => {
        const known = FIELD_EXAMPLES[key];
        const arbitrary = arbitraryOf(value, depth + 1);
        return [key, known === undefined ? arbitrary : fc.oneof(fc.constant(known), arbitrary)] as const;
      });
      return fc.record(Object.fromEntries(entries)).map(dropUndefined);
    }
    case z.ZodFirstPartyTypeKind.ZodRecord:
      return fc
        .dictionary(
          stringOf([
            { kind: "min", value: 1 },
            { kind: "max", value: 12 },
          ]),
          arbitraryOf(def.valueType as z.ZodTypeAny, depth + 1),
          { maxKeys: 3 },
        )
        .map(dropUndefined);
    case z.ZodFirstPartyTypeKind.ZodUnion:
    case z.ZodFirstPartyTypeKind.ZodDiscriminatedUnion: {
      const options = (def.options as z.ZodTypeAny[] | Map<unknown, z.ZodTypeAny>) ?? [];
      const list = Array.isArray(options) ? options : [...options.values()];
      return fc.oneof(...list.map((option) => arbitraryOf(option, depth + 1)));
    }
    case z.ZodFirstPartyTypeKind.ZodIntersection:
      return fc
        .tuple(arbitraryOf(def.left as z.ZodTypeAny, depth + 1), arbitraryOf(def.right as z.ZodTypeAny, depth + 1))
        .map(([a, b]) => (isObject(a) && isObject(b) ? { ...a, ...b } : a));
    case z.ZodFirstPartyTypeKind.ZodTuple:
      return fc.tuple(...(def.items as z.ZodTypeAny[]).map((item) => arbitraryOf(item, depth + 1)));
    case z.ZodFirstPartyTypeKind.ZodNull:
      return fc.constant(null);
    case z.ZodFirstPartyTypeKind.ZodDate:
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    default:
      // unknown / any / others: any JSON value.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Fields whose refinements random values rarely satisfy: a known-good value is also tried. */
const FIELD_EXAMPLES: Record<string, unknown> = {
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
};

type StringCheck = { kind: string; value?: number; regex?: RegExp };
type NumberCheck = { kind: string; value?: number; inclusive?: boolean };

function stringOf(checks: StringCheck[]): fc.Arbitrary<string> {
  let min = 0;
  let max = 40;
  for (const check of checks) {
    if (check.kind === "min") min = check.value!;
    if (check.kind === "max") max = Math.min(check.value!, 4096);
    if (check.kind === "length") min = max = check.value!;
  }
  const regex = checks.find((c) => c.kind === "regex")?.regex;
  if (regex) {
    return fc.noShrink(fc.stringMatching(regex).filter((s) => s.length >= min && s.length <= Math.max(max, min)));
  }
  if (checks.some((c) => c.kind === "url")) return fc.constantFrom("https://example.com/a", "http://127.0.0.1:9/x");
  if (checks.some((c) => c.kind === "email")) return fc.constant("someone@example.com");
  const hi = Math.max(min, Math.min(max, min + 24));
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: hi, unit: "grapheme" }) },
    // Boundaries: exactly the shortest and the longest accepted.
    { weight: 1, arbitrary: fc.constant("a".repeat(min)) },
    { weight: 1, arbitrary: fc.constant("z".repeat(max)) },
  );
}

function numberOf(checks: NumberCheck[]): fc.Arbitrary<number> {
  const int = checks.some((c) => c.kind === "int");
  let min = -1_000_000;
  let max = 1_000_000;
  for (const check of checks) {
    if (check.kind === "min") min = check.inclusive === false ? check.value! + (int ? 1 : 1e-9) : check.value!;
    if (check.kind === "max") max = check.inclusive === false ? check.value! - (int ? 1 : 1e-9) : check.value!;
  }
  const core = int
    ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 6, arbitrary: core }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A value the schema accepts, found among seeded samples of its arbitrary; `undefined` when none was found. */
export function validSample(schema: z.ZodTypeAny | undefined, seed: number, tries = 300): unknown {
  if (!schema) return undefined;
  for (const candidate of fc.sample(arbitraryOf(schema), { seed, numRuns: tries })) {
    if (schema.safeParse(candidate).success) return candidate;
  }
  return undefined;
}
