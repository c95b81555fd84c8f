// The yardstick of the end-to-end workloads: a bare node:http + pg server doing the same persistent work as the
// platform, run as its own process. Create = one INSERT; a turn = INSERT the user message, call the model, INSERT the
// reply; the log = one SELECT. No framework, validation, auth, envelope, queue or durability beyond those rows.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
pool.on("error", () => {});
const modelUrl = `${process.env.MODEL_URL}/chat/completions`;
const replies = new EventEmitter();
replies.setMaxListeners(0);
// No cap on model connections: the floor of `pnpm bench:scale` holds thousands of slow model calls at once.
const modelAgent = new http.Agent({ keepAlive: true });

await pool.query(`CREATE TABLE IF NOT EXISTS bare_agents (id text PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz DEFAULT now());
  CREATE TABLE IF NOT EXISTS bare_sessions (id text PRIMARY KEY, agent text, created_at timestamptz DEFAULT now());
  CREATE TABLE IF NOT EXISTS bare_messages (session text NOT NULL, seq serial, role text NOT NULL, content text NOT NULL,
    created_at timestamptz DEFAULT now(), PRIMARY KEY (session, seq));`);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function callModel(text: string): Promise<string> {
  const body = JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: text }] });
  return new Promise((resolve, reject) => {
    const r = http.request(
      modelUrl,
      {
        method: "POST",
        agent: modelAgent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        readBody(res as unknown as http.IncomingMessage).then((raw) => {
          const parsed = JSON.parse(raw) as { choices: { message: { content: string } }[] };
          resolve(parsed.choices[0]!.message.content);
        }, reject);
      },
    );
    r.on("error", reject);
    r.end(body);
  });
}

async function turn(session: string, text: string): Promise<void> {
  const reply = await callModel(text);
  await pool.query("INSERT INTO bare_messages (session, role, content) VALUES ($1, 'assistant', $2)", [session, reply]);
  replies.emit(session);
}

const json = (res: http.ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://x");
    const parts = url.pathname.split("/").filter(Boolean);
    if (req.method === "POST" && url.pathname === "/agents") {
      const id = randomUUID();
      await pool.query("INSERT INTO bare_agents (id, body) VALUES ($1, $2)", [id, await readBody(req)]);
      return json(res, 201, { id });
    }
    if (req.method === "POST" && url.pathname === "/sessions") {
      const { agent } = JSON.parse(await readBody(req)) as { agent: string };
      const id = randomUUID();
      await pool.query("INSERT INTO bare_sessions (id, agent) VALUES ($1, $2)", [id, agent]);
      return json(res, 201, { id });
    }
    if (req.method === "POST" && parts[0] === "sessions" && parts[2] === "messages") {
      const { text } = JSON.parse(await readBody(req)) as { text: string };
      await pool.query("INSERT INTO bare_messages (session, role, content) VALUES ($1, 'user', $2)", [parts[1], text]);
      json(res, 202, { ok: true });
      turn(parts[1]!, text).catch((error) => process.stderr.write(`turn failed: ${error}\n`));
      return;
    }
    if (req.method === "GET" && parts[0] === "sessions" && parts[2] === "stream") {
      // Streams the log until the reply to the last user message is in it.
      const session = parts[1]!;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      const send = async (): Promise<boolean> => {
        const { rows } = await pool.query<{ role: string; content: string; seq: number }>(
          "SELECT role, content, seq FROM bare_messages WHERE session = $1 ORDER BY seq",
          [session],
        );
        for (const row of rows) res.write(`id: ${row.seq}\ndata: ${JSON.stringify(row)}\n\n`);
        return rows.at(-1)?.role === "assistant";
      };
      const done = () => res.end("event: idle\ndata: {}\n\n");
      const onReply = () => {
        replies.off(session, onReply);
        send().then(done, () => res.destroy());
      };
      replies.on(session, onReply);
      if (await send()) {
        replies.off(session, onReply);
        done();
      }
      return;
    }
    if (req.method === "GET" && parts[0] === "sessions" && parts[2] === "events") {
      const { rows } = await pool.query(
        "SELECT seq, role, content, created_at FROM bare_messages WHERE session = $1 ORDER BY seq",
        [parts[1]],
      );
      return json(res, 200, { data: rows });
    }
    json(res, 404, { error: "not found" });
  } catch (error) {
    json(res, 500, { error: String(error) });
  }
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
