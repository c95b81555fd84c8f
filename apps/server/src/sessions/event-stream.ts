import { PassThrough } from "node:stream";
import type { Response } from "express";
import type { AppContext } from "../context.js";
import { isDatabaseUnavailable } from "../lib/database-unavailable.js";
import { subscribeSessionEvents } from "./event-notifier.js";
import { followSessionDeltas } from "./live-deltas.js";
import { listSessionEvents, readEvents, type StoredEvent } from "./log/index.js";
import { recentEvents } from "./recent-events.js";

const PAGE = 500;
const HEARTBEAT_DEFAULT_MS = 15_000;
/** A read that met an unreachable database is tried again this soon (the stream stays open through the outage). */
const READ_RETRY_MS = 500;
/** A delta follower whose unsent output exceeds this many bytes loses deltas (never entries) until it catches up. */
export const DELTA_BUFFER_BYTES = 256 * 1024;

/** `SESSION_STREAM_HEARTBEAT_MS` (tests shorten it); 15 s by default. */
function heartbeatMs(ctx: AppContext): number {
  const value = Number(ctx.config.env.SESSION_STREAM_HEARTBEAT_MS);
  return Number.isInteger(value) && value > 0 ? value : HEARTBEAT_DEFAULT_MS;
}

/** The entries' frames in one string: written at once, they leave in one packet rather than one each. */
function frames(events: readonly StoredEvent[]): string {
  let text = "";
  for (const event of events) text += `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  return text;
}

/**
 * Server-Sent Events of a session log: the entries after `afterSeq`, then every entry committed later, in `seq` order
 * without gaps or repeats. Subscribes to the shared listener before reading the backlog (with the session's existence,
 * in one query), so an entry committed in between is caught by the notification (or the listener's resync). Heartbeats keep proxies from closing an idle
 * stream. Everything stops when the client goes away or the server closes the connection.
 *
 * Returns the body stream (ts-rest pipes it into the response); a missing session is a 404 before anything is sent.
 */
export async function openSessionEventStream(
  ctx: AppContext,
  projectId: string,
  sessionId: string,
  afterSeq: number,
  res: Response,
  deltas = false,
): Promise<PassThrough> {
  let position = afterSeq;
  let closed = false;
  // The backlog's read counts as a pump: a notification during it asks for one more pass.
  let pumping = true;
  let again = false;
  const recent = recentEvents(ctx);
  // The newest `seq` notified: entries up to it are committed.
  let notified = afterSeq;
  const unsubscribe = subscribeSessionEvents(ctx, sessionId, (seq) => {
    notified = Math.max(notified, seq);
    if (seq <= position) return;
    if (pumping) again = true;
    else void pump();
  });
  let backlog: Awaited<ReturnType<typeof listSessionEvents>>;
  try {
    backlog = await listSessionEvents(ctx.db.pool, projectId, sessionId, afterSeq, PAGE);
  } catch (error) {
    unsubscribe();
    throw error;
  }
  const body = new PassThrough();

  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, no-transform");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.socket?.setNoDelay(true);

  const write = async (text: string) => {
    if (closed) return;
    if (!body.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          body.off("drain", done);
          body.off("close", done);
          resolve();
        };
        body.on("drain", done);
        body.on("close", done);
      });
    }
  };

  let retry: NodeJS.Timeout | undefined;
  // Reads are serialised: a notification during a read only asks for one more pass.
  const pump = async () => {
    clearTimeout(retry);
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      let more = true;
      while (more && !closed) {
        again = false;
        // Entries this process committed are sent as its commit returned them; others are read.
        const local = notified > position ? await recent.read(sessionId, position, notified) : null;
        const events = local ?? (await readEvents(ctx.db.pool, sessionId, position, PAGE));
        if (closed) return;
        if (events.length > 0) {
          position = events[events.length - 1]!.seq;
          await write(frames(events));
        }
        more = (!local && events.length === PAGE) || again;
      }
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        // A database restart or failover: the follower stays connected and the read is tried again (the listener's
        // resynchronisation after it reconnects asks for it too), so it misses nothing committed meanwhile.
        ctx.logger.warn({ err: error, sessionId }, "session event stream waiting for the database");
        retry = setTimeout(() => void pump(), READ_RETRY_MS);
        retry.unref();
        return;
      }
      // The client reconnects with Last-Event-ID and resumes exactly where this stream stopped.
      ctx.logger.error({ err: error, sessionId }, "session event stream failed");
      stop();
      body.end();
    } finally {
      pumping = false;
    }
  };

  // Deltas before the opening comment and the backlog are dropped (the stream starts with the log).
  let opened = false;
  // Deltas are written as they come, never waited for: past the bound they are dropped, so a stalled follower holds
  // at most DELTA_BUFFER_BYTES of them and slows neither the turn nor the other followers.
  const following = deltas
    ? followSessionDeltas(ctx, sessionId, (delta) => {
        if (closed || !opened || body.writableLength > DELTA_BUFFER_BYTES) return;
        body.write(`event: ${delta.type}\ndata: ${JSON.stringify(delta)}\n\n`);
      })
    : undefined;

  const heartbeat = setInterval(() => void write(": ping\n\n"), heartbeatMs(ctx));

  function stop() {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(retry);
    unsubscribe();
    following?.unfollow();
  }
  res.on("close", () => {
    stop();
    body.destroy();
  });
  // The server is shutting down: end the stream cleanly; the client reconnects (elsewhere) and resumes after `position`.
  const onStopping = () => {
    stop();
    body.end();
  };
  if (ctx.stopping.aborted) onStopping();
  else ctx.stopping.addEventListener("abort", onStopping, { once: true });
  res.on("close", () => ctx.stopping.removeEventListener("abort", onStopping));

  // The opening comment and the backlog go in one write, once the body is piped (a large backlog waits for the client
  // to drain it).
  if (backlog.data.length > 0) position = backlog.data[backlog.data.length - 1]!.seq;
  await following?.announced;
  void (async () => {
    const opening = write(`: session ${sessionId} after ${afterSeq}\n\n${frames(backlog.data)}`);
    opened = true;
    await opening;
    if (closed) return;
    pumping = false;
    if (backlog.hasMore || again) void pump();
  })();
  return body;
}
