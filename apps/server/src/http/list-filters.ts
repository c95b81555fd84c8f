/** The `status` filter of lists of archivable resources (agents, skills, environments, serverless tools). */
export type ArchivedStatus = "active" | "archived" | "all";

/** The `where` fragment of a `status` filter: active rows have no `archivedAt`. */
export function archivedWhere(status: ArchivedStatus): { archivedAt?: null | { not: null } } {
  if (status === "all") return {};
  return { archivedAt: status === "active" ? null : { not: null } };
}

/**
 * The `where` fragment of a case-insensitive substring filter on `name`. Prisma's `contains` is a LIKE pattern, so the
 * wildcards of the filter are escaped: it matches literally.
 */
export function nameContains(text: string | undefined): { name?: { contains: string; mode: "insensitive" } } {
  if (!text) return {};
  return { name: { contains: escapeLike(text), mode: "insensitive" } };
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
