import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does with one request instead of passing it on. */
export type Fault =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answers (until the client gives up). */
  | "hang"
  /** Closes the connection without an answer. */
  | "drop";

export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: string;
}

export interface FaultProxy {
  url: string;
  seen: SeenRequest[];
  /** Faults for the next requests, in order (one each); later requests reach the server. */
  inject(...faults: Fault[]): void;
  close(): Promise<void>;
}

/** An HTTP proxy on loopback in front of a real server that answers chosen requests itself (503, 429, hangs, drops). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const seen: SeenRequest[] = [];
  const faults: Fault[] = [];
  const upstream = new URL(target);
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    seen.push({
      method: req.method ?? "",
      path: req.url ?? "",
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      body: body.toString("utf8"),
    });
    const fault = faults.shift();
    if (fault === "hang") return;
    if (fault === "drop") {
      req.socket.destroy();
      return;
    }
    if (fault) {
      res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
      res.end(JSON.stringify(fault.body ?? { error: { code: "test.fault", message: "injected", requestId: "req_x" } }));
      return;
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    inject: (...more) => faults.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
