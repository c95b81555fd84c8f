import { setTimeout as sleep } from "node:timers/promises";
import type { Response } from "express";
import type { AppContext } from "../context.js";
import { isDatabaseUnavailable } from "../lib/database-unavailable.js";
import { measure } from "../lib/telemetry/instruments.js";
import { subscribeSessionEvents } from "./event-notifier.js";
import { followSessionDeltas } from "./live-deltas.js";
import { readEvents, type StoredEvent } from "./log/index.js";
import { recentEvents } from "./recent-events.js";

const PAGE = 500;
/** A read that met an unreachable database is tried again this soon (the streams stay open through the outage). */
const READ_RETRY_MS = 500;
/**
 * The newest frames a feed keeps, so that a follower a few entries behind (joining while entries are committed, or
 * back from a full buffer) catches up without a read: bounded in entries and bytes, and forgotten once the session
 * has been quiet for WINDOW_MS, so a thousand followed sessions hold little.
 */
const WINDOW_ENTRIES = 64;
const WINDOW_BYTES = 128 * 1024;
const WINDOW_MS = 5_000;
/**
 * A follower whose unsent output exceeds this many bytes gets nothing more from the feed: it waits for its socket to
 * drain, then catches up on its own (from the feed's frames or the log) and joins again, so it never slows the others
 * and holds at most this much plus one batch.
 */
export const SLOW_FOLLOWER_BYTES = 64 * 1024;
/** A delta follower whose unsent output exceeds this many bytes loses deltas (never entries) until it catches up. */
export const DELTA_BUFFER_BYTES = 256 * 1024;
/** How long a slow follower waits for a `drain` before it looks at its buffer again. */
const DRAIN_CHECK_MS = 1_000;

/** One entry's SSE frame. */
export function frameOf(event: StoredEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** One SSE response following a session: where it stands, and whether the feed writes to it. */
const CRLF = Buffer.from("\r\n");

/** `data` as one chunk of a chunked HTTP/1.1 body. */
export function asChunk(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, CRLF]);
}

export class StreamFollower {
  /** The newest `seq` it has been sent (or has no need of: see `skipTo`). */
  position = 0;
  /** Entries up to this `seq` are not sent (a stream opened after the log's head). */
  skipTo = 0;
  /** The feed writes each new batch to it; false while it catches up on its own. */
  live = false;
  /** Its opening comment and backlog are written (deltas before that are dropped). */
  opened = false;
  closed = false;
  catchingUp = false;
  /** Leaves the feed and the process's streams (set by whoever opened it; called once the response is over). */
  stop: () => void = () => {};

  constructor(
    readonly res: Response,
    readonly deltas: boolean,
  ) {}

  /** One write, sent at once (corked: the chunk's size line, data and end leave in one packet). */
  send(data: string | Buffer): void {
    if (this.closed) return;
    this.res.cork();
    this.res.write(data);
    this.res.uncork();
  }

  /**
   * A batch shared by many followers: `framed` is `data` already framed as one chunk of a chunked HTTP/1.1 body, written
   * straight to the socket (the response's own write would frame it again for each follower). Anything else (an
   * HTTP/1.0 client, headers not yet sent) goes through the response.
   */
  sendFramed(framed: Buffer, data: Buffer): void {
    if (this.closed) return;
    const socket = this.res.socket;
    // The socket must be this response's and hold nothing of it back (Node's internal fields: a response waiting
    // behind another on a kept-alive connection queues its output in `outputData`).
    const internal = this.res as unknown as { outputData?: unknown[] };
    const owns = (socket as unknown as { _httpMessage?: unknown } | null)?._httpMessage === this.res;
    if (
      owns &&
      this.res.headersSent &&
      this.res.chunkedEncoding &&
      !this.res.writableEnded &&
      !socket!.destroyed &&
      (internal.outputData?.length ?? 0) === 0
    ) {
      socket!.write(framed);
    } else {
      this.send(data);
    }
  }

  get slow(): boolean {
    return this.res.writableLength > SLOW_FOLLOWER_BYTES;
  }

  /** Resolves when the socket drained, the response closed, or after DRAIN_CHECK_MS (the caller looks again). */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.res.off("drain", done);
        this.res.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, DRAIN_CHECK_MS);
      this.res.on("drain", done);
      this.res.on("close", done);
    });
  }
}

/**
 * The process's fan-out of one session's log to its SSE followers: one subscription to the shared listener, one read
 * per notified batch of entries (from this process's recent commits or the log), each entry serialised to its frame
 * once and the batch encoded once, then written to every follower standing where the batch begins. Followers elsewhere
 * (just connected, reconnected with an older `Last-Event-ID`, slow) catch up on their own from the feed's recent
 * frames or the log, then join. Counted on `agent_platform.session_stream.reads` by source.
 */
export class SessionFeed {
  /** The newest `seq` the feed has read (entries up to it are committed); unset until a follower anchors it. */
  head: number | undefined;
  private notified = -1;
  private window: { seq: number; frame: string }[] = [];
  private windowBytes = 0;
  private windowAt = 0;
  readonly followers = new Set<StreamFollower>();
  private pumping = false;
  private again = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private deltaFollowers = 0;
  private deltaFollowing: { unfollow: () => void; announced: Promise<void> } | undefined;

  constructor(
    private readonly ctx: AppContext,
    readonly sessionId: string,
    private readonly onEmpty: (feed: SessionFeed) => void,
  ) {
    this.unsubscribe = subscribeSessionEvents(ctx, sessionId, (seq) => {
      if (seq > this.notified) this.notified = seq;
      if (this.head !== undefined && seq > this.head) void this.pump();
    });
  }

  /** Adds a follower (before its backlog is read); resolves once workers know it wants deltas, if it does. */
  add(follower: StreamFollower): Promise<void> {
    this.followers.add(follower);
    if (!follower.deltas) return Promise.resolve();
    this.deltaFollowers++;
    this.deltaFollowing ??= followSessionDeltas(this.ctx, this.sessionId, (delta) => this.sendDelta(delta));
    return this.deltaFollowing.announced;
  }

  remove(follower: StreamFollower): void {
    if (!this.followers.delete(follower)) return;
    if (follower.deltas && --this.deltaFollowers === 0) {
      this.deltaFollowing?.unfollow();
      this.deltaFollowing = undefined;
    }
    if (this.followers.size > 0) return;
    this.unsubscribe();
    clearTimeout(this.retry);
    this.onEmpty(this);
  }

  /**
   * The follower has been sent its backlog, read when the log's head was `logHead`: from now on it gets every entry
   * after its position, from the feed or (if behind it) on its own.
   */
  join(follower: StreamFollower, logHead: number): void {
    if (this.head === undefined) {
      this.head = logHead;
      if (this.notified > this.head) void this.pump();
    }
    void this.catchUp(follower);
  }

  /** Deltas are serialised once and written to every opened delta follower with room for them, never waited for. */
  private sendDelta(delta: object & { type: string }): void {
    let data: Buffer | undefined;
    for (const f of this.followers) {
      if (!f.deltas || !f.opened || f.closed || f.res.writableLength > DELTA_BUFFER_BYTES) continue;
      data ??= Buffer.from(`event: ${delta.type}\ndata: ${JSON.stringify(delta)}\n\n`);
      f.send(data);
    }
  }

  /** Reads are serialised: a notification during a read only asks for one more pass. */
  private async pump(): Promise<void> {
    clearTimeout(this.retry);
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      let more = true;
      while (more && this.followers.size > 0) {
        this.again = false;
        const from = this.head!;
        // Entries this process committed are sent as its commit returned them; others are read.
        const local =
          this.notified > from ? await recentEvents(this.ctx).read(this.sessionId, from, this.notified) : null;
        const events = local ?? (await readEvents(this.ctx.db.pool, this.sessionId, from, PAGE));
        measure().streamReads.add(1, { source: local ? "recent" : "database" });
        if (events.length > 0) this.deliver(from, events);
        // A notification that arrived during the read asks for another only if it is for an entry the read did not
        // cover (it often is for one it did: the read ran after the commit it announces).
        more = (this.again && this.notified > this.head!) || (!local && events.length === PAGE);
      }
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        // A database restart or failover: the followers stay connected and the read is tried again (the listener's
        // resynchronisation after it reconnects asks for it too), so they miss nothing committed meanwhile.
        this.ctx.logger.warn(
          { err: error, sessionId: this.sessionId },
          "session event stream waiting for the database",
        );
        this.retry = setTimeout(() => void this.pump(), READ_RETRY_MS);
        this.retry.unref();
        return;
      }
      // Each client reconnects with Last-Event-ID and resumes exactly where its stream stopped.
      this.ctx.logger.error({ err: error, sessionId: this.sessionId }, "session event stream failed");
      for (const f of [...this.followers]) endFollower(f);
    } finally {
      this.pumping = false;
    }
  }

  /** Writes the entries after `from` to every live follower: one buffer for all that stand at `from`. */
  private deliver(from: number, events: StoredEvent[]): void {
    let text = "";
    for (const event of events) {
      const frame = frameOf(event);
      text += frame;
      this.window.push({ seq: event.seq, frame });
      this.windowBytes += frame.length;
    }
    while (this.window.length > WINDOW_ENTRIES || (this.windowBytes > WINDOW_BYTES && this.window.length > 1)) {
      this.windowBytes -= this.window.shift()!.frame.length;
    }
    this.windowAt = Date.now();
    const to = events[events.length - 1]!.seq;
    this.head = to;
    let batch: Buffer | undefined;
    let framed: Buffer | undefined;
    for (const f of this.followers) {
      if (!f.live || f.closed || f.position >= to) continue;
      if (f.slow) {
        f.live = false;
        void this.catchUp(f);
        continue;
      }
      if (f.position === from && f.skipTo <= from) {
        batch ??= Buffer.from(text);
        framed ??= asChunk(batch);
        f.sendFramed(framed, batch);
        f.position = to;
        continue;
      }
      const slice = this.framesAfter(f, to);
      if (slice === undefined) {
        f.live = false;
        void this.catchUp(f);
        continue;
      }
      if (slice !== "") f.send(slice);
      f.position = to;
    }
  }

  /** Drops the kept frames once the session has been quiet for a while (called on the heartbeat's tick). */
  forgetQuietFrames(now: number): void {
    if (this.window.length > 0 && now - this.windowAt > WINDOW_MS) {
      this.window = [];
      this.windowBytes = 0;
    }
  }

  /** The frames the follower lacks up to `to` from the feed's window ("" when none), or undefined if not all there. */
  private framesAfter(f: StreamFollower, to: number): string | undefined {
    const after = Math.max(f.position, f.skipTo);
    if (after >= to) return "";
    const first = this.window[0]?.seq;
    if (first === undefined || after + 1 < first) return undefined;
    let text = "";
    for (let i = after + 1 - first; i < this.window.length && this.window[i]!.seq <= to; i++)
      text += this.window[i]!.frame;
    return text;
  }

  /** Brings the follower up to the feed's head on its own (frames kept here, else its own reads), then makes it live. */
  private async catchUp(f: StreamFollower): Promise<void> {
    if (f.catchingUp) return;
    f.catchingUp = true;
    try {
      while (!f.closed) {
        if (f.slow) {
          await f.drained();
          continue;
        }
        const head = this.head!;
        if (f.position >= head) {
          f.live = true;
          return;
        }
        const kept = this.framesAfter(f, head);
        if (kept !== undefined) {
          if (kept !== "") f.send(kept);
          f.position = head;
          continue;
        }
        let events: StoredEvent[];
        try {
          events = await readEvents(this.ctx.db.pool, this.sessionId, f.position, PAGE);
        } catch (error) {
          if (!isDatabaseUnavailable(error)) throw error;
          await sleep(READ_RETRY_MS);
          continue;
        }
        measure().streamReads.add(1, { source: "catch_up" });
        if (f.closed) return;
        if (events.length === 0) {
          // Cannot happen (the head is committed) unless the log was deleted: wait for the feed.
          f.live = true;
          return;
        }
        let text = "";
        for (const event of events) if (event.seq > f.skipTo) text += frameOf(event);
        if (text !== "") f.send(text);
        f.position = events[events.length - 1]!.seq;
      }
    } catch (error) {
      this.ctx.logger.error({ err: error, sessionId: this.sessionId }, "session event stream failed");
      endFollower(f);
    } finally {
      f.catchingUp = false;
    }
  }
}

/** Ends a follower's stream after whole frames (its client resumes with Last-Event-ID). */
export function endFollower(f: StreamFollower): void {
  if (f.closed) return;
  f.stop();
  f.res.end();
}
