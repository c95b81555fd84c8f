import http from "node:http";

export interface SseFrame {
  id?: string;
  event?: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed log entries
  data?: any;
  /** For frames without `id:`: how many numbered frames had arrived before it. */
  after?: number;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  frames: SseFrame[];
  /** Frames without an `id:` (live deltas), in order of arrival. */
  unnumbered: SseFrame[];
  comments: string[];
  /** Resolves once at least `count` frames have arrived (rejects after `timeoutMs`). */
  waitForFrames(count: number, timeoutMs?: number): Promise<SseFrame[]>;
  waitForComment(match: (comment: string) => boolean, timeoutMs?: number): Promise<void>;
  /** The body of a non-stream answer (errors). */
  body(): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A minimal Server-Sent Events client over a raw HTTP request (so tests see exactly what is on the wire). */
export function openSse(url: string, headers: Record<string, string>): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: "text/event-stream", ...headers }, agent: false }, (res) => {
      const frames: SseFrame[] = [];
      const unnumbered: SseFrame[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = "";
      let raw = "";
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => {
        endResolve = r;
      });
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const frame: SseFrame = {};
          let isFrame = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else if (line.startsWith("id: ")) {
              frame.id = line.slice(4);
              isFrame = true;
            } else if (line.startsWith("event: ")) frame.event = line.slice(7);
            else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6));
          }
          if (isFrame) frames.push(frame);
          else if (frame.event !== undefined) unnumbered.push({ ...frame, after: frames.length });
          cut = buffer.indexOf("\n\n");
        }
        for (const w of [...waiters]) w();
      });
      res.on("end", () => endResolve());
      res.on("close", () => endResolve());
      const wait = (ready: () => boolean, what: string, timeoutMs: number) =>
        new Promise<void>((ok, fail) => {
          if (ready()) return ok();
          const timer = setTimeout(() => {
            waiters.delete(check);
            fail(new Error(`timed out waiting for ${what}; frames: ${frames.map((f) => f.id).join(",")}`));
          }, timeoutMs);
          const check = () => {
            if (!ready()) return;
            clearTimeout(timer);
            waiters.delete(check);
            ok();
          };
          waiters.add(check);
        });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        frames,
        unnumbered,
        comments,
        waitForFrames: async (count, timeoutMs = 5000) => {
          await wait(() => frames.length >= count, `${count} frames`, timeoutMs);
          return frames.slice(0, count);
        },
        waitForComment: (match, timeoutMs = 5000) => wait(() => comments.some(match), "a comment", timeoutMs),
        body: async () => {
          await ended;
          return raw;
        },
        ended,
        close: () => {
          req.destroy();
        },
      });
    });
    req.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
    });
  });
}
