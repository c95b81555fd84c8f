// A child process of `bench/scale/followers.ts`: holds its share of the SSE followers as lean as it can (raw
// http.request, bytes counted, nothing parsed but the awaited entry), so that the client's CPU does not hide the
// server's. Commands arrive over IPC; times are absolute (performance.timeOrigin + now) so the parent can compare them.
import http from "node:http";

interface Follower {
  /** Index of the session it follows. */
  session: number;
  idles: number;
  /** The end of the previous chunk (a marker can straddle two chunks). */
  tail: string;
  arrivals: number[];
}

const MARKER = "event: session.status_idle\n";
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const followers: Follower[] = [];
let bytes = 0;
let errors = 0;
/** The awaited idle entry's commit time per session (parsed once per session and round, not per follower). */
let createdAt = new Map<number, number>();
let waiting: { counts: Record<number, number>; resolve: () => void } | undefined;
const now = () => performance.timeOrigin + performance.now();

function open(url: string, session: number, headers: Record<string, string>): Promise<number> {
  const begun = now();
  return new Promise((resolve) => {
    const follower: Follower = { session, idles: 0, tail: "", arrivals: [] };
    const req = http.request(url, { headers: { accept: "text/event-stream", ...headers }, agent }, (res) => {
      if (res.statusCode !== 200) {
        errors++;
        res.resume();
        return resolve(-1);
      }
      let opened = false;
      res.setEncoding("latin1");
      res.on("data", (chunk: string) => {
        bytes += chunk.length;
        if (!opened) {
          opened = true;
          followers.push(follower);
          resolve(now() - begun);
        }
        const text = follower.tail + chunk;
        let at = text.indexOf(MARKER);
        while (at >= 0) {
          follower.idles++;
          follower.arrivals.push(now());
          // One connection per session parses the awaited entry's data line, for the entry's commit time.
          if (waiting && !createdAt.has(session)) {
            const line = text.slice(at + MARKER.length, text.indexOf("\n", at + MARKER.length));
            const match = /"createdAt":"([^"]+)"/.exec(line);
            if (match) createdAt.set(session, Date.parse(match[1]!));
          }
          at = text.indexOf(MARKER, at + MARKER.length);
        }
        follower.tail = text.slice(-MARKER.length);
        if (waiting && follower.idles >= (waiting.counts[session] ?? 0)) check();
      });
      res.on("error", () => errors++);
    });
    req.on("error", () => {
      errors++;
      resolve(-1);
    });
    req.end();
  });
}

function check(): void {
  if (!waiting) return;
  const counts = waiting.counts;
  if (followers.every((f) => f.idles >= (counts[f.session] ?? 0))) {
    const done = waiting.resolve;
    waiting = undefined;
    done();
  }
}

process.on("message", async (message: { cmd: string; [key: string]: unknown }) => {
  if (message.cmd === "open") {
    const { urls, sessions, headers, parallel } = message as unknown as {
      urls: string[];
      /** The session index of each connection to open. */
      sessions: number[];
      headers: Record<string, string>;
      parallel: number;
    };
    const connectMs: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < sessions.length) {
          const session = sessions[next++]!;
          connectMs.push(await open(urls[session]!, session, headers));
        }
      }),
    );
    process.send!({ cmd: "opened", connectMs, errors });
  } else if (message.cmd === "await") {
    // counts[session]: the idle entries its followers must have seen (the sessions of this round are one more).
    const counts = message.counts as Record<number, number>;
    createdAt = new Map();
    await new Promise<void>((resolve) => {
      waiting = { counts, resolve };
      check();
    });
    process.send!({
      cmd: "arrived",
      arrivals: followers
        .filter((f) => counts[f.session] !== undefined)
        .map((f) => [f.session, f.arrivals[counts[f.session]! - 1]!]),
      createdAt: [...createdAt],
      bytes,
      errors,
    });
  } else if (message.cmd === "exit") {
    process.exit(0);
  }
});
process.send!({ cmd: "ready" });
