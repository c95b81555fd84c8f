import { z } from "zod";
import { Name } from "../common/fields.js";
import { PageQuerySchema } from "../common/pagination.js";

/** UTF-8 size of a string, computed without allocating a buffer. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Text bounded in UTF-8 bytes. The character bound is a cheap first check (a character is at least one byte) that also
 * shows as `maxLength` in OpenAPI; the refinement is the exact one.
 */
export function boundedText(maxBytes: number, minLength = 0) {
  return z
    .string()
    .min(minLength)
    .max(maxBytes)
    .refine((text) => utf8Bytes(text) <= maxBytes, { message: `at most ${maxBytes} bytes (UTF-8)` });
}

/**
 * Name of a resource that is referenced by "id or name": it may not look like an id of that kind, so a reference is
 * never ambiguous.
 */
export function referenceableName(prefix: string) {
  return Name.refine((name) => !name.startsWith(`${prefix}_`), {
    message: `must not start with \`${prefix}_\` (reserved for ids)`,
  });
}

export const PathId = z.string().min(1).max(128);
export const ProjectParams = z.object({ projectId: PathId });
export const ProjectItemParams = z.object({ projectId: PathId, id: PathId });
export const WorkspaceItemParams = z.object({ id: PathId });

/** `name` filter of lists: exact match. */
export const NameFilterQuery = PageQuerySchema.extend({
  name: z.string().min(1).max(200).optional().describe("Only the resource with exactly this name"),
});

/** `status` filter of lists of archivable resources. */
export const StatusFilterQuery = PageQuerySchema.extend({
  status: z.enum(["active", "archived", "all"]).default("active").describe("`active` (default), `archived` or `all`"),
});
