// A child process of `bench/scale/followers.ts`: holds its share of the SSE followers as lean as it can (raw
// http.request, bytes counted, nothing parsed but the awaited entry), so that the client's CPU does not hide the
// server's. Commands arrive over IPC; times are absolute (performance.timeOrigin + now) so the parent can compare them.
import http from "node:http";

interface Follower {
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
let createdAt: number | undefined;
let waiting: { count: number; resolve: () => void } | undefined;
const now = () => performance.timeOrigin + performance.now();

function open(url: string, headers: Record<string, string>): Promise<number> {
  const begun = now();
  return new Promise((resolve) => {
    const follower: Follower = { idles: 0, tail: "", arrivals: [] };
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
          // One connection parses the awaited entry's data line once, for the entry's commit time.
          if (createdAt === undefined) {
            const line = text.slice(at + MARKER.length, text.indexOf("\n", at + MARKER.length));
            const match = /"createdAt":"([^"]+)"/.exec(line);
            if (match) createdAt = Date.parse(match[1]!);
          }
          at = text.indexOf(MARKER, at + MARKER.length);
        }
        follower.tail = text.slice(-MARKER.length);
        if (waiting && follower.idles >= waiting.count) check();
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
  const count = waiting.count;
  if (followers.every((f) => f.idles >= count)) {
    const done = waiting.resolve;
    waiting = undefined;
    done();
  }
}

process.on("message", async (message: { cmd: string; [key: string]: unknown }) => {
  if (message.cmd === "open") {
    const { url, headers, count, parallel } = message as unknown as {
      url: string;
      headers: Record<string, string>;
      count: number;
      parallel: number;
    };
    const connectMs: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          next++;
          connectMs.push(await open(url, headers));
        }
      }),
    );
    process.send!({ cmd: "opened", connectMs, errors });
  } else if (message.cmd === "await") {
    const count = message.count as number;
    createdAt = undefined;
    await new Promise<void>((resolve) => {
      waiting = { count, resolve };
      check();
    });
    process.send!({
      cmd: "arrived",
      arrivals: followers.map((f) => f.arrivals[count - 1]!),
      createdAt,
      bytes,
      errors,
    });
  } else if (message.cmd === "exit") {
    process.exit(0);
  }
});
process.send!({ cmd: "ready" });
