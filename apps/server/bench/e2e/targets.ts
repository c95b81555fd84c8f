import http from "node:http";

/** A keep-alive HTTP client for one server (the way an SDK or an app server talks to it). */
export class HttpClient {
  readonly agent: http.Agent;
  /** Streams get connections of their own, closed when the reader is done (the same for every target). */
  private readonly streamAgent = new http.Agent({ keepAlive: false });

  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string>,
    concurrency: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  }

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
    const res = await this.send(method, path, body);
    return { status: res.status, body: res.body.toString("utf8") };
  }

  /**
   * A GET whose body stays bytes: W4 reads logs of hundreds of kilobytes at thousands of reads per second, and decoding
   * each into a string cost this process, not the server under test, a large share of its core.
   */
  async getBytes(path: string): Promise<Buffer> {
    return (await this.send("GET", path)).body;
  }

  private send(method: string, path: string, body?: unknown): Promise<{ status: number; body: Buffer }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const r = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...this.headers,
            ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            if ((res.statusCode ?? 500) >= 400)
              reject(new Error(`${method} ${path}: ${res.statusCode} ${bytes.subarray(0, 300).toString("utf8")}`));
            else resolve({ status: res.statusCode ?? 0, body: bytes });
          });
        },
      );
      r.on("error", reject);
      r.end(payload);
    });
  }

  /** Reads a Server-Sent Events stream until `done` holds for what arrived so far, then closes it. */
  follow(path: string, done: (text: string) => boolean, timeoutMs = 30_000): Promise<void> {
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => {
        reject(new Error(`no end of turn within ${timeoutMs / 1000} s on ${path}: ${text.slice(-500)}`));
        r.destroy();
      }, timeoutMs);
      const r = http.get(
        url,
        { agent: this.streamAgent, headers: { ...this.headers, accept: "text/event-stream" } },
        (res) => {
          res.on("data", (c: Buffer) => {
            text += c.toString("utf8");
            if (done(text)) {
              clearTimeout(timer);
              resolve();
              r.destroy();
            }
          });
          res.on("end", () => {
            clearTimeout(timer);
            if (done(text)) resolve();
            else reject(new Error(`stream ended early: ${text.slice(-300)}`));
          });
          res.on("error", () => {});
        },
      );
      r.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  close(): void {
    this.agent.destroy();
    this.streamAgent.destroy();
  }
}

/** What a workload does against a server, whichever it is. */
export interface Target {
  name: string;
  createAgent(client: HttpClient, i: number): Promise<string>;
  createSession(client: HttpClient, agentId: string): Promise<string>;
  /** Posts one user message and follows the log until the turn has ended (within `timeoutMs`, default 30 s). */
  turn(client: HttpClient, sessionId: string, text: string, timeoutMs?: number): Promise<void>;
  /** Reads the whole log (every page) and returns the `seq` of its last entry. */
  readLog(client: HttpClient, sessionId: string): Promise<number>;
}

export function platformTarget(projectId: string): Target {
  const base = `/v1/projects/${projectId}`;
  return {
    name: "platform",
    async createAgent(client, i) {
      const res = await client.request("POST", `${base}/agents`, {
        name: `Bench agent ${i}`,
        model: "openai-compatible/fake-model",
        system: "Be brief.",
      });
      return (JSON.parse(res.body) as { id: string }).id;
    },
    async createSession(client, agentId) {
      const res = await client.request("POST", `${base}/sessions`, { agent: agentId });
      return (JSON.parse(res.body) as { id: string }).id;
    },
    async turn(client, sessionId, text, timeoutMs) {
      const res = await client.request("POST", `${base}/sessions/${sessionId}/events`, {
        events: [{ type: "user.message", content: [{ type: "text", text }] }],
      });
      const after = (JSON.parse(res.body) as { events: { seq: number }[] }).events[0]!.seq;
      await client.follow(
        `${base}/sessions/${sessionId}/events/stream?afterSeq=${after}`,
        (t) => t.includes("session.status_idle"),
        timeoutMs,
      );
    },
    async readLog(client, sessionId) {
      let after = 0;
      for (;;) {
        const body = await client.getBytes(`${base}/sessions/${sessionId}/events?afterSeq=${after}`);
        const end = body.subarray(-80).toString("utf8");
        const tail = /"hasMore":\s*(true|false),\s*"nextAfterSeq":\s*(\d+)\}$/.exec(end);
        if (!tail) throw new Error(`not a page of the log: ${body.subarray(0, 200).toString("utf8")}`);
        if (lastSeq(body) !== Number(tail[2]))
          throw new Error(`a page's last entry is not its nextAfterSeq ${tail[2]}`);
        after = Number(tail[2]);
        if (tail[1] === "false") return after;
      }
    },
  };
}

export const bareTarget: Target = {
  name: "bare",
  async createAgent(client, i) {
    const res = await client.request("POST", "/agents", {
      name: `Bench agent ${i}`,
      model: "fake",
      system: "Be brief.",
    });
    return (JSON.parse(res.body) as { id: string }).id;
  },
  async createSession(client, agentId) {
    const res = await client.request("POST", "/sessions", { agent: agentId });
    return (JSON.parse(res.body) as { id: string }).id;
  },
  async turn(client, sessionId, text, timeoutMs) {
    await client.request("POST", `/sessions/${sessionId}/messages`, { text });
    await client.follow(`/sessions/${sessionId}/stream`, (t) => t.includes("event: idle"), timeoutMs);
  },
  async readLog(client, sessionId) {
    const body = await client.getBytes(`/sessions/${sessionId}/events`);
    if (!body.subarray(0, 9).equals(LOG_START) || !body.subarray(-2).equals(LOG_END))
      throw new Error(`not a log: ${body.subarray(0, 200).toString("utf8")}`);
    return lastSeq(body);
  },
};

/**
 * Builds W4's session, a 100-turn log (one turn at a time, on one connection), and returns it with the `seq` of its
 * last entry. Shared by `run-e2e.ts` and `run-wrk.ts`.
 */
export async function prepareLog(
  target: Target,
  baseUrl: string,
  headers: Record<string, string>,
  agentId: string,
): Promise<{ session: string; lastSeq: number }> {
  const client = new HttpClient(baseUrl, headers, 1);
  try {
    const session = await target.createSession(client, agentId);
    for (let i = 0; i < 100; i++) await target.turn(client, session, `Message ${i}`);
    return { session, lastSeq: await target.readLog(client, session) };
  } finally {
    client.close();
  }
}

/**
 * The `seq` of the last entry in a log's JSON text, found from its end without decoding or scanning the rest (each
 * entry has one `seq` member; inside a JSON string a quote is escaped, so `"seq":` occurs only as a member name); 0
 * when there is none. W4 reads logs at 1,000+ reads/s in the bench's one client process, on the same cores as the
 * server under test: parsing every page made that process the bottleneck (the harness at 80–100 % of a core, the
 * platform at 60–75 %), and counting every entry's `"seq":` still cost it ~150 µs per 500-entry page (the platform's
 * pages hold 2.5× the bare server's entries for the same turns).
 */
function lastSeq(body: Buffer): number {
  const at = body.lastIndexOf(SEQ);
  if (at === -1) return 0;
  let i = at + SEQ.length;
  while (body[i] === 0x20) i++;
  let seq = 0;
  for (; i < body.length && body[i]! >= 0x30 && body[i]! <= 0x39; i++) seq = seq * 10 + body[i]! - 0x30;
  return seq;
}
const SEQ = Buffer.from('"seq":');
const LOG_START = Buffer.from('{"data":[');
const LOG_END = Buffer.from("]}");
