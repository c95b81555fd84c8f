import {
  SESSION_DELTA_EVENT,
  SESSION_DELTA_WITHDRAWN_EVENT,
  type SessionDelta,
  type SessionDeltaWithdrawn,
} from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { onePerOwner } from "../lib/per-owner.js";

/** API processes announce here (payload: a session id) that a follower of theirs wants the session's deltas. */
const WANT_CHANNEL = "session_delta_followers";
/** Workers publish deltas here: `{"s":<sessionId>,"d":[SessionDelta…]}`, each payload under PostgreSQL's 8000 bytes. */
const DELTA_CHANNEL = "session_deltas";
/** An announcement holds for this long; API processes repeat it every ANNOUNCE_MS while the follower stays. */
const LEASE_MS = 15_000;
const ANNOUNCE_MS = 5_000;
/** Deltas are batched this long (one NOTIFY per batch, not per token). */
const FLUSH_MS = 25;
/** Payload budget of one NOTIFY (bytes, the limit is 8000) and the longest fragment in one delta (UTF-16 units). */
const PAYLOAD_BYTES = 6_500;
const FRAGMENT_CHARS = 1_000;

export type DeltaListener = (delta: SessionDelta | SessionDeltaWithdrawn) => void;
type DeltaPart = Omit<SessionDelta, "type" | "afterSeq" | "call">;

class LiveDeltas {
  private readonly followers = new Map<string, Set<DeltaListener>>();
  private readonly wanted = new Map<string, number>();
  private followersAttached = false;
  private workerAttached = false;
  private announcer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: AppContext) {}

  /** API side: `listener` receives the session's deltas published by any worker; returns the unsubscribe function. */
  follow(sessionId: string, listener: DeltaListener): { unfollow: () => void; announced: Promise<void> } {
    if (!this.followersAttached) {
      this.followersAttached = true;
      this.ctx.listener.subscribe(DELTA_CHANNEL, {
        onNotification: (payload) => this.dispatch(payload),
        onConnected: () => {},
      });
    }
    let set = this.followers.get(sessionId);
    if (!set) {
      set = new Set();
      this.followers.set(sessionId, set);
    }
    set.add(listener);
    const announced = this.announce([sessionId]);
    if (!this.announcer) {
      this.announcer = setInterval(() => void this.announce([...this.followers.keys()]), ANNOUNCE_MS);
      this.announcer.unref();
    }
    let active = true;
    const unfollow = () => {
      if (!active) return;
      active = false;
      const current = this.followers.get(sessionId);
      current?.delete(listener);
      if (current?.size === 0) this.followers.delete(sessionId);
      if (this.followers.size === 0) {
        clearInterval(this.announcer);
        this.announcer = undefined;
      }
    };
    return { unfollow, announced };
  }

  private async announce(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    try {
      await this.ctx.db.pool.query("SELECT pg_notify($1, id) FROM unnest($2::text[]) AS id", [
        WANT_CHANNEL,
        sessionIds,
      ]);
    } catch (error) {
      this.ctx.logger.warn({ err: error }, "could not announce delta followers");
    }
  }

  private dispatch(payload: string): void {
    let batch: { s: string; d: (SessionDelta | SessionDeltaWithdrawn)[] };
    try {
      batch = JSON.parse(payload);
    } catch {
      return;
    }
    const set = this.followers.get(batch.s);
    if (!set) return;
    for (const listener of [...set]) for (const delta of batch.d) listener(delta);
  }

  /** Worker side: listen for announcements (once per process; costs nothing while nobody announces). */
  watch(): void {
    if (this.workerAttached) return;
    this.workerAttached = true;
    this.ctx.listener.subscribe(WANT_CHANNEL, {
      onNotification: (sessionId) => this.wanted.set(sessionId, Date.now() + LEASE_MS),
      onConnected: () => {},
    });
  }

  wants(sessionId: string): boolean {
    const until = this.wanted.get(sessionId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.wanted.delete(sessionId);
    return false;
  }

  publish(payload: string): Promise<unknown> {
    return this.ctx.db.pool.query("SELECT pg_notify($1, $2)", [DELTA_CHANNEL, payload]);
  }
}

const liveDeltasOf = onePerOwner((ctx: AppContext) => new LiveDeltas(ctx));

/**
 * Delivers the session's live deltas (from any worker) to `listener` until `unfollow` is called; `announced` resolves
 * once workers have been told (a model call starting after it streams).
 */
export function followSessionDeltas(
  ctx: AppContext,
  sessionId: string,
  listener: DeltaListener,
): { unfollow: () => void; announced: Promise<void> } {
  return liveDeltasOf(ctx).follow(sessionId, listener);
}

/** Starts listening for delta followers' announcements (a worker process calls it once at start). */
export function watchDeltaFollowers(ctx: AppContext): void {
  liveDeltasOf(ctx).watch();
}

/** The deltas of one model call, batched into NOTIFYs; `close` sends what is left (and waits for it). */
export interface LiveReply {
  push(part: DeltaPart): void;
  close(): Promise<void>;
}

/**
 * A publisher for one model call of the session, or `undefined` when no follower anywhere announced that it wants
 * deltas (then the call is not streamed and nothing is sent).
 */
export function liveReply(
  ctx: AppContext,
  sessionId: string,
  call: { afterSeq: number; call: number },
): LiveReply | undefined {
  const hub = liveDeltasOf(ctx);
  if (!hub.wants(sessionId)) return undefined;
  let pending: SessionDelta[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batches = toPayloads(sessionId, pending);
    pending = [];
    for (const payload of batches) {
      chain = chain.then(() =>
        hub.publish(payload).catch((error) => ctx.logger.warn({ err: error, sessionId }, "could not publish deltas")),
      );
    }
  };
  return {
    push(part) {
      for (let at = 0; at < part.delta.length; at += FRAGMENT_CHARS) {
        const delta = part.delta.slice(at, at + FRAGMENT_CHARS);
        const last = pending.at(-1);
        if (last && last.kind === part.kind && last.toolCallId === part.toolCallId && at === 0) {
          last.delta += delta;
        } else {
          pending.push({ type: SESSION_DELTA_EVENT, ...call, ...part, delta });
        }
      }
      timer ??= setTimeout(flush, FLUSH_MS);
    },
    async close() {
      flush();
      await chain;
    },
  };
}

/** Splits the deltas into NOTIFY payloads under PAYLOAD_BYTES (a merged delta too long is cut in two). */
function toPayloads(sessionId: string, deltas: SessionDelta[]): string[] {
  const payloads: string[] = [];
  const head = `{"s":${JSON.stringify(sessionId)},"d":[`;
  let body = "";
  const queue = [...deltas];
  while (queue.length > 0) {
    const delta = queue.shift()!;
    const json = JSON.stringify(delta);
    const size = Buffer.byteLength(json);
    if (size > PAYLOAD_BYTES - head.length - 2 && delta.delta.length > 1) {
      const half = Math.ceil(delta.delta.length / 2);
      queue.unshift({ ...delta, delta: delta.delta.slice(0, half) }, { ...delta, delta: delta.delta.slice(half) });
      continue;
    }
    if (body !== "" && Buffer.byteLength(head) + Buffer.byteLength(body) + size + 3 > PAYLOAD_BYTES) {
      payloads.push(`${head}${body}]}`);
      body = "";
    }
    body += body === "" ? json : `,${json}`;
  }
  if (body !== "") payloads.push(`${head}${body}]}`);
  return payloads;
}

/**
 * Tells the session's delta followers that the deltas of one model call are withdrawn (an output guardrail blocked or
 * redacted the reply): sent after the call's deltas and before the commit whose entries follow, so followers get it
 * in between. Nothing is sent when no follower wants deltas.
 */
export async function withdrawLiveReply(
  ctx: AppContext,
  sessionId: string,
  call: { afterSeq: number; call: number },
  reason: SessionDeltaWithdrawn["reason"],
): Promise<void> {
  const hub = liveDeltasOf(ctx);
  if (!hub.wants(sessionId)) return;
  const withdrawn: SessionDeltaWithdrawn = { type: SESSION_DELTA_WITHDRAWN_EVENT, ...call, reason };
  await hub
    .publish(JSON.stringify({ s: sessionId, d: [withdrawn] }))
    .catch((error) => ctx.logger.warn({ err: error, sessionId }, "could not publish a delta withdrawal"));
}
