import { z } from "zod";
import { LIMITS } from "./limits.js";

export const Timestamp = z.string().datetime({ offset: true }).describe("ISO 8601 UTC timestamp with milliseconds");
export const NullableTimestamp = Timestamp.nullable();

export const MetadataSchema = z
  .record(z.string().min(1).max(LIMITS.metadataKeyLength), z.string().max(LIMITS.metadataValueLength))
  .refine((m) => Object.keys(m).length <= LIMITS.metadataEntries, {
    message: `at most ${LIMITS.metadataEntries} metadata entries`,
  })
  .describe("Map string to string");

/** The body of a file download (`application/octet-stream`): bytes, which clients read as a `Uint8Array`. */
export const FileBytes = z.custom<Uint8Array>();

export const Name = z.string().trim().min(1).max(200);
export const Description = z.string().max(2000);

/** A resource referenced by id or by its unique name. */
export const IdOrName = z.string().min(1).max(200);

export function idOf(prefix: string) {
  return z
    .string()
    .min(prefix.length + 2)
    .max(64)
    .describe(`\`${prefix}_\` id`);
}

/** The body of an action that takes no input: none, or an empty object; anything else is a 400 `request.invalid`. */
export const EmptyBodySchema = z.object({}).strict().describe("Empty object (or no body)");
