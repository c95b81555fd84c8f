import pg from "pg";
import { prepared } from "./prepared.js";

/** A notification to send once the write it announces is committed. */
export interface Notice {
  channel: string;
  payload: string;
}

type Queryable = Pick<pg.Pool, "query">;

/** After a failed send (the database unreachable, or no connection free in time), how soon it is tried again. */
const RETRY_MS = 250;
/** Notices kept while sends fail; past it the oldest go (listeners re-read everything when they reconnect). */
const MAX_QUEUED = 50_000;

const SEND_SQL = "SELECT count(pg_notify(n.c, n.p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)";

/**
 * Why notifications are not sent inside the transaction that writes: PostgreSQL serialises the commits of
 * transactions that called NOTIFY with one database-wide lock, held from just before the commit until its WAL record is
 * flushed. Every append to a session log notifying in its own transaction made those commits wait for each other's
 * flush, one at a time. A transaction that only notifies writes no WAL of its own, so its commit is not flushed and
 * the lock is held for microseconds; the notices of one event-loop turn go out together, in one statement.
 *
 * The cost: a process that dies between a commit and its notice leaves the notice unsent. Listeners cover that gap
 * themselves (see `SessionEventNotifier`: a resynchronisation when a process starts, and a slow periodic one).
 */
class NoticeBatcher {
  private readonly queued = new Map<string, Notice>();
  private scheduled = false;
  private sending: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly pool: pg.Pool) {}

  add(notices: readonly Notice[]): void {
    for (const notice of notices) {
      const key = `${notice.channel}\u0000${notice.payload}`;
      this.queued.delete(key);
      this.queued.set(key, notice);
    }
    while (this.queued.size > MAX_QUEUED) this.queued.delete(this.queued.keys().next().value!);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.sending || this.retry) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.sending = this.send().finally(() => {
        this.sending = undefined;
        if (this.queued.size > 0) this.schedule();
      });
    });
  }

  private async send(): Promise<void> {
    if (this.queued.size === 0) return;
    const batch = [...this.queued.values()];
    this.queued.clear();
    try {
      await this.pool.query(prepared(SEND_SQL, [batch.map((n) => n.channel), batch.map((n) => n.payload)]));
    } catch {
      const pool = this.pool as pg.Pool & { ending?: boolean };
      if (pool.ending) return;
      // Newer notices of the same key win: put the failed ones back in front of what arrived meanwhile.
      const later = [...this.queued.values()];
      this.queued.clear();
      this.add([...batch, ...later]);
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.schedule();
      }, RETRY_MS);
      this.retry.unref();
    }
  }

  /** Sends what is queued (a stopping process, before its pool closes); a send that fails is not retried then. */
  async drain(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.sending;
    if (this.queued.size > 0) await this.send();
  }
}

const batchers = new WeakMap<pg.Pool, NoticeBatcher>();
const batcherOf = (pool: pg.Pool) => {
  let batcher = batchers.get(pool);
  if (!batcher) {
    batcher = new NoticeBatcher(pool);
    batchers.set(pool, batcher);
  }
  return batcher;
};

/** The notices of each open transaction whose owner sends them at its commit (`openNotices`/`closeNotices`). */
const openTransactions = new WeakMap<object, Notice[]>();

/**
 * Sends `notices` once what was just written through `db` is committed, batched with the process's other notices:
 * at once when `db` is a pool (the statement committed); at the commit of the transaction when `db` is the client of
 * one opened with `openNotices`. On any other client the notices are sent through it now, so PostgreSQL delivers them
 * at its commit (inside the NOTIFY lock: correct, not the fast path).
 */
export async function notifyAfterCommit(db: Queryable, notices: readonly Notice[]): Promise<void> {
  if (notices.length === 0) return;
  const pending = openTransactions.get(db);
  if (pending) {
    pending.push(...notices);
    return;
  }
  if (db instanceof pg.Pool) {
    batcherOf(db).add(notices);
    return;
  }
  await db.query(SEND_SQL, [notices.map((n) => n.channel), notices.map((n) => n.payload)]);
}

/** Marks `client` as inside a transaction whose notices wait for its commit (call after BEGIN). */
export function openNotices(client: pg.ClientBase): void {
  openTransactions.set(client, []);
}

/**
 * Ends the mark of `openNotices`: after a COMMIT, the transaction's notices are sent through `pool`; after a rollback
 * (`committed` false) they are dropped.
 */
export function closeNotices(client: pg.ClientBase, pool: pg.Pool, committed: boolean): void {
  const notices = openTransactions.get(client);
  openTransactions.delete(client);
  if (committed && notices && notices.length > 0) batcherOf(pool).add(notices);
}

/** Sends the notices still queued for `pool` (call before closing it). */
export async function drainNotices(pool: pg.Pool): Promise<void> {
  await batchers.get(pool)?.drain();
}
