import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * Statement texts this process prepares, by name. Bounded: a text beyond the bound is sent unnamed, so a caller that
 * builds many distinct texts cannot grow every connection's set of prepared statements without end.
 */
const names = new Map<string, string>();
const MAX_PREPARED = 200;
let named = true;

/**
 * Sends every statement unnamed from now on (`DATABASE_PREPARED_STATEMENTS=off`): for a connection pooler that cannot
 * keep named statements per client (PgBouncer before 1.21 in transaction mode), at the cost of parsing each time.
 */
export function disableNamedStatements(): void {
  named = false;
}

/**
 * A single-statement query sent as a named (prepared) statement: each pooled connection parses and plans it once
 * and then only binds values, instead of PostgreSQL parsing, analysing and planning the text on every call (a
 * third of the database's time per turn on the hot paths' CTE statements). The name is derived from the text, so
 * the variants a call site builds (optional CTEs) are distinct statements. For the hot paths only: every connection
 * keeps each one until it closes.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  if (!named) return { text, values };
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED) {
    name = `ap_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}
