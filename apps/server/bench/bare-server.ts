import http from "node:http";
import pg from "pg";

/**
 * The yardstick of `pnpm bench`: a bare node:http + pg server doing the same persistent work as the platform's event
 * ingestion and log read (append the events with gap-free seq, record the work item, read a page of the log), with
 * no framework, validation library, auth or envelope.
 */
export async function startBareServer(connectionString: string): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString, max: 20 });
  pool.on("error", () => {});
  let counter = 0;
  const server = http.createServer((req, res) => {
    const match = /^\/sessions\/([^/]+)\/events(?:\?afterSeq=(\d+)&limit=(\d+))?$/.exec(req.url ?? "");
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const sessionId = match[1]!;
    const fail = (error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }));
    };
    if (req.method === "GET") {
      pool
        .query(
          `SELECT "seq", "id", "type", "payload", "createdAt" FROM session_events
           WHERE "sessionId" = $1 AND "seq" > $2 ORDER BY "seq" LIMIT $3`,
          [sessionId, Number(match[2] ?? 0), Number(match[3] ?? 100)],
        )
        .then(({ rows }) => {
          const data = rows.map((r) => ({ ...r.payload, seq: r.seq, id: r.id, type: r.type, createdAt: r.createdAt }));
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
        })
        .catch(fail);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const client = await pool.connect();
      try {
        const { events } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          events: { type: string; content: unknown }[];
        };
        await client.query("BEGIN");
        const { rows } = await client.query(
          `WITH bump AS (UPDATE sessions SET "lastSeq" = "lastSeq" + $2 WHERE id = $1 RETURNING "lastSeq" - $2 AS base)
           INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload")
           SELECT $1, bump.base + input.ord, input.id, input.type, input.payload
           FROM bump, unnest($3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS input(id, type, payload, ord)
           RETURNING "seq", "id"`,
          [
            sessionId,
            events.length,
            events.map(() => `evt_bare${process.pid}_${++counter}`),
            events.map((e) => e.type),
            events.map((e) => JSON.stringify({ content: e.content })),
          ],
        );
        await client.query(
          `WITH upsert AS (
             INSERT INTO jobs ("kind", "key") VALUES ('session.turn', $1)
             ON CONFLICT ("kind", "key") DO UPDATE SET "generation" = jobs."generation" + 1
             RETURNING "key"
           )
           SELECT pg_notify('jobs', 'session.turn|0|' || "key") FROM upsert`,
          [sessionId],
        );
        await client.query("COMMIT");
        res.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ events: rows }));
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        fail(error);
      } finally {
        client.release();
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await pool.end();
    },
  };
}
