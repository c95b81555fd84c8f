import { Stream } from "node:stream";
import type { Response } from "express";
import type { AppContext } from "../context.js";
import { onePerOwner } from "../lib/per-owner.js";
import { listSessionEvents } from "./log/index.js";
import { endFollower, frameOf, SessionFeed, StreamFollower } from "./stream-feed.js";

export { DELTA_BUFFER_BYTES } from "./stream-feed.js";

const PAGE = 500;
const HEARTBEAT_DEFAULT_MS = 15_000;
const PING = Buffer.from(": ping\n\n");

/** `SESSION_STREAM_HEARTBEAT_MS` (tests shorten it); 15 s by default. */
function heartbeatMs(ctx: AppContext): number {
  const value = Number(ctx.config.env.SESSION_STREAM_HEARTBEAT_MS);
  return Number.isInteger(value) && value > 0 ? value : HEARTBEAT_DEFAULT_MS;
}

/**
 * The process's event streams: one feed per followed session, one heartbeat timer for every stream (not one each),
 * one listener on the server's stop for all of them.
 */
class EventStreams {
  readonly feeds = new Map<string, SessionFeed>();
  readonly followers = new Set<StreamFollower>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: AppContext) {
    // The server is shutting down: end every stream cleanly after a whole frame; clients reconnect (elsewhere) and
    // resume after their position.
    ctx.stopping.addEventListener("abort", () => {
      for (const f of [...this.followers]) endFollower(f);
    });
  }

  feed(sessionId: string): SessionFeed {
    let feed = this.feeds.get(sessionId);
    if (!feed) {
      feed = new SessionFeed(this.ctx, sessionId, (empty) => {
        if (this.feeds.get(sessionId) === empty) this.feeds.delete(sessionId);
      });
      this.feeds.set(sessionId, feed);
    }
    return feed;
  }

  track(follower: StreamFollower): void {
    this.followers.add(follower);
    this.heartbeat ??= setInterval(() => this.ping(), heartbeatMs(this.ctx));
  }

  untrack(follower: StreamFollower): void {
    this.followers.delete(follower);
    if (this.followers.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /** Heartbeats keep proxies from closing an idle stream (a slow follower's buffer already holds something). */
  private ping(): void {
    for (const f of this.followers) if (f.opened && !f.slow) f.send(PING);
    const now = Date.now();
    for (const feed of this.feeds.values()) feed.forgetQuietFrames(now);
  }
}

const streamsOf = onePerOwner((ctx: AppContext) => new EventStreams(ctx));

/** The body handed to ts-rest: the stream writes to the response itself, so piping it there does nothing. */
class WrittenDirectly extends Stream {
  override pipe<T extends NodeJS.WritableStream>(destination: T): T {
    return destination;
  }
}

/**
 * A stream's request (a GET, already parsed whole) read to its end and let go at once. Node reports a request still
 * open when its connection closes as aborted, and formats the stack trace of the error it builds for it (~3 % of a
 * short stream's CPU); a follower always leaves that way. The connection and the response are not touched.
 */
function releaseWhenRead(req: Response["req"]): void {
  req.once("end", () => req.destroy());
  req.resume();
}

/**
 * Server-Sent Events of a session log: the entries after `afterSeq`, then every entry committed later, in `seq` order
 * without gaps or repeats. The follower joins its session's feed (which subscribes to the shared listener) before
 * the backlog is read (with the session's existence, in one query), so an entry committed in between reaches it
 * through the feed or its catch-up. Everything stops when the client goes away or the server closes the connection.
 *
 * Returns the body for ts-rest (the stream writes to `res` itself); a missing session is a 404 before anything is sent.
 */
export async function openSessionEventStream(
  ctx: AppContext,
  projectId: string,
  sessionId: string,
  afterSeq: number,
  res: Response,
  deltas = false,
): Promise<Stream> {
  const streams = streamsOf(ctx);
  const feed = streams.feed(sessionId);
  const follower = new StreamFollower(res, deltas);
  const announced = feed.add(follower);
  streams.track(follower);
  follower.stop = () => {
    if (follower.closed) return;
    follower.closed = true;
    feed.remove(follower);
    streams.untrack(follower);
  };
  res.on("close", follower.stop);
  releaseWhenRead(res.req);
  let backlog: Awaited<ReturnType<typeof listSessionEvents>>;
  try {
    backlog = await listSessionEvents(ctx.db.pool, projectId, sessionId, afterSeq, PAGE);
  } catch (error) {
    follower.stop();
    throw error;
  }

  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, no-transform");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.socket?.setNoDelay(true);

  // Deltas before the opening comment and the backlog are dropped (the stream starts with the log).
  await announced;
  if (follower.closed) return new WrittenDirectly();
  if (ctx.stopping.aborted) {
    endFollower(follower);
    return new WrittenDirectly();
  }
  let opening = `: session ${sessionId} after ${afterSeq}\n\n`;
  for (const event of backlog.data) opening += frameOf(event);
  follower.send(opening);
  follower.opened = true;
  follower.skipTo = afterSeq;
  follower.position =
    backlog.data.length > 0 ? backlog.data[backlog.data.length - 1]!.seq : Math.min(afterSeq, backlog.head);
  feed.join(follower, backlog.head);
  return new WrittenDirectly();
}
