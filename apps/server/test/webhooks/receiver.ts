import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  headers: Record<string, string>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed webhook bodies are inspected freely by tests
  event: any;
}

/** How the receiver answers the next request: a status, or never (the connection stays open). */
export type Answer = number | "hang";

/**
 * A real HTTP server on 127.0.0.1 that receives webhook deliveries, answering from a queue of answers (200 when it is
 * empty), and verifies signatures with the `standardwebhooks` library, as a receiver would.
 */
export interface Receiver {
  url: string;
  received: Received[];
  answer(...answers: Answer[]): void;
  /** Verifies a delivery with `secret` (throws when the signature does not match). */
  verify(delivery: Received, secret: string): unknown;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const hanging: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      received.push({ headers, body, event: JSON.parse(body) });
      const answer = answers.shift() ?? 200;
      if (answer === "hang") {
        hanging.push(request);
        return;
      }
      response.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (...next) => {
      answers.push(...next);
    },
    verify: (delivery, secret) => new Webhook(secret).verify(delivery.body, delivery.headers),
    close: () =>
      new Promise<void>((resolve) => {
        for (const request of hanging) request.socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
