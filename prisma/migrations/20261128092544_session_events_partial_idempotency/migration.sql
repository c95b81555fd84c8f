-- DropIndex
DROP INDEX "session_events_sessionId_idempotencyKey_key";

-- Added by hand (Prisma's schema language cannot say WHERE): the same uniqueness, over the entries that have a key.
-- The platform's own entries (every entry but some posted ones) have none and now add no index entry: issue #40
-- measured ~480 bytes of WAL per turn for the NULL keys of this index.
CREATE UNIQUE INDEX "session_events_sessionId_idempotencyKey_key" ON "session_events"("sessionId", "idempotencyKey")
  WHERE "idempotencyKey" IS NOT NULL;
