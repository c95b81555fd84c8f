-- Appends to session logs are announced by their writers after the commit (`announceAppended`), batched per process in
-- a transaction that writes nothing. A NOTIFY inside the appending transaction took PostgreSQL's database-wide NOTIFY
-- lock until the commit's WAL flush, so appending commits were flushed one at a time.
DROP TRIGGER IF EXISTS "session_events_notify" ON "session_events";
DROP FUNCTION IF EXISTS "notify_session_events"();
