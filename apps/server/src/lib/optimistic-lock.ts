/**
 * Optimistic locking of versioned resources (agents, skills, serverless tools): a write names the version it expects to
 * be current; the bump is one guarded UPDATE that matches only while the resource is active and at that version, so of
 * two racing writes from the same version exactly one wins and the other is told why.
 */

/** What the lock reads of a versioned resource's head row. */
export interface VersionedHead {
  currentVersion: number;
  archivedAt: Date | null;
}

/** The area's errors (each area has its own codes). */
export interface VersionLockRefusals {
  notFound(): Error;
  archived(): Error;
  conflict(expected: number, current: number): Error;
}

/** Throws the area's error unless `head` exists, is active and (when `expected` is given) at `expected`. */
export function assertExpectedVersion<H extends VersionedHead>(
  head: H | null | undefined,
  expected: number | undefined,
  refuse: VersionLockRefusals,
): asserts head is H {
  if (!head) throw refuse.notFound();
  if (head.archivedAt) throw refuse.archived();
  if (expected !== undefined && head.currentVersion !== expected) throw refuse.conflict(expected, head.currentVersion);
}

/**
 * Runs the guarded UPDATE `bump` (inside the caller's transaction); when it matched nothing, reads the head again with
 * `reread` and throws why: gone, archived, or moved past `expected`.
 */
export async function bumpUnderLock<T>(
  bump: () => Promise<T | undefined>,
  reread: () => Promise<VersionedHead | null>,
  expected: number,
  refuse: VersionLockRefusals,
): Promise<T> {
  const bumped = await bump();
  if (bumped !== undefined) return bumped;
  const head = await reread();
  assertExpectedVersion(head, expected, refuse);
  // The head is active and at `expected` now: the UPDATE raced with a write that has since been rolled back.
  throw refuse.conflict(expected, head.currentVersion);
}
