import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder (ends with a slash). */
export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** README.md and every docs/*.md page, as absolute paths. */
export function docPages(): string[] {
  return [
    join(ROOT, "README.md"),
    ...readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(ROOT, "docs", name)),
  ];
}
