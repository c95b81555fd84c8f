import { z } from "zod";

/**
 * A kind of job as the code that enqueues it knows it: its name (`area.verb`, no `|` or `:`) and the schema of the
 * payload its jobs carry. Declared once, next to the area's code; the kind that runs it (`JobKind`) extends it, and
 * `enqueueJob` takes it, so a payload is typed the same where it is written and where it is read.
 */
export interface JobType<P> {
  readonly kind: string;
  /** Checked at claim; a payload that does not parse gives up at once. */
  readonly payload: z.ZodType<P>;
}

/** The payload of a kind whose key says everything (a session id, an automation id): nothing else is accepted. */
export const NO_PAYLOAD = z.object({}).strict();
export type NoPayload = z.infer<typeof NO_PAYLOAD>;

export function jobType<P>(kind: string, payload: z.ZodType<P>): JobType<P> {
  if (/[|:]/.test(kind)) throw new Error(`A job kind has no "|" or ":": ${kind}`);
  return { kind, payload };
}
