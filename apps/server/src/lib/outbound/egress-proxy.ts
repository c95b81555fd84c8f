/**
 * A forward HTTP proxy on loopback for clients the platform runs on someone's behalf (a headless browser, a sandbox):
 * every request they make — plain HTTP in absolute form, HTTPS and WebSocket tunnels through CONNECT, upgrades — is
 * judged by the caller's host-name policy, then by the outbound address policy, and connected to the address that was
 * checked (resolved once, pinned). The client never resolves names itself, so it cannot reach an address the policy
 * refuses, whatever its pages do.
 */
import { chmod, chown } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { findAddressRefusal, type Outbound } from "./outbound.js";

export interface EgressProxyOptions {
  outbound: Pick<Outbound, "resolveChecked">;
  /** The host-name policy: null when the URL may be requested, else the reason it may not. */
  judge(url: URL): string | null;
  /** Called for each refused request (what the client asked for, and why). */
  onRefused?(target: string, reason: string): void;
  /** Bounds connecting to an upstream (default 10 s). */
  connectTimeoutMs?: number;
  /** Listen on a unix socket owned by this user (bridged into a sandbox) instead of a loopback port. */
  listen?: { path: string; uid: number; gid: number };
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, or `unix:<path>` */
  readonly url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "proxy-authorization",
  "proxy-connection",
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

class Refused extends Error {}

function refuse(res: http.ServerResponse, status: number, reason: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "X-Agent-Platform-Egress": "refused" });
  res.end(reason);
}

function refuseSocket(socket: Duplex, status: number, reason: string): void {
  const text = status === 403 ? "Forbidden" : "Bad Gateway";
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n` +
      `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}

function forwardedHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const sockets = new Set<net.Socket | Duplex>();

  /** The pinned address for a URL, or a `Refused` with the reason. */
  async function admit(url: URL): Promise<string> {
    const reason = options.judge(url);
    if (reason) throw new Refused(reason);
    try {
      return await options.outbound.resolveChecked(url.hostname);
    } catch (error) {
      const refusal = findAddressRefusal(error);
      throw refusal ? new Refused(refusal.message) : error;
    }
  }

  function refused(target: string, error: unknown): string {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof Refused) options.onRefused?.(target, reason);
    return reason;
  }

  function track<S extends net.Socket | Duplex>(socket: S): S {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    return socket;
  }

  function connectTo(address: string, port: number): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const upstream = track(net.connect({ host: address, port }));
      upstream.setTimeout(connectTimeoutMs, () => upstream.destroy(new Error(`connecting timed out`)));
      upstream.once("connect", () => {
        upstream.setTimeout(0);
        resolve(upstream);
      });
      upstream.once("error", reject);
    });
  }

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return refuse(res, 400, "The proxy only accepts absolute http:// URLs");
    }
    if (url.protocol !== "http:") return refuse(res, 400, "The proxy only accepts absolute http:// URLs");
    admit(url).then(
      (address) => {
        const upstream = http.request({
          host: address,
          port: url.port ? Number(url.port) : 80,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: forwardedHeaders(req.rawHeaders),
          setHost: false,
        });
        // Bounds connecting only: a response may stream for as long as the page keeps it (SSE, long polls).
        upstream.on("socket", (socket) => {
          track(socket);
          socket.setTimeout(connectTimeoutMs, () => socket.destroy(new Error("connecting timed out")));
          socket.once("connect", () => socket.setTimeout(0));
        });
        res.on("close", () => upstream.destroy());
        upstream.on("response", (response) => {
          res.writeHead(response.statusCode ?? 502, response.statusMessage, forwardedHeaders(response.rawHeaders));
          response.pipe(res);
        });
        upstream.on("error", (error) => refuse(res, 502, `Upstream failed: ${error.message}`));
        req.pipe(upstream);
      },
      (error) => refuse(res, error instanceof Refused ? 403 : 502, refused(url.href, error)),
    );
  });

  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const authority = req.url ?? "";
    let url: URL;
    try {
      url = new URL(`https://${authority}`);
      if (!url.port && !authority.endsWith(":443")) throw new Error("no port");
    } catch {
      return refuseSocket(client, 403, `Not a host:port: ${authority.slice(0, 200)}`);
    }
    admit(url)
      .then((address) => connectTo(address, url.port ? Number(url.port) : 443))
      .then(
        (upstream) => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        },
        (error) => refuseSocket(client, error instanceof Refused ? 403 : 502, refused(authority, error)),
      );
  });

  // A plain-HTTP WebSocket asked of the proxy in absolute form.
  server.on("upgrade", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    let url: URL;
    try {
      url = new URL(req.url ?? "");
      if (url.protocol !== "http:" && url.protocol !== "ws:") throw new Error("scheme");
    } catch {
      return refuseSocket(client, 403, "The proxy only accepts absolute http:// URLs");
    }
    const judged = new URL(url.href.replace(/^ws:/, "http:"));
    admit(judged)
      .then((address) => connectTo(address, judged.port ? Number(judged.port) : 80))
      .then(
        (upstream) => {
          const lines = [`${req.method} ${judged.pathname}${judged.search} HTTP/1.1`];
          for (let i = 0; i < req.rawHeaders.length; i += 2) {
            const name = req.rawHeaders[i]!;
            if (!name.toLowerCase().startsWith("proxy-")) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
          }
          upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        },
        (error) => refuseSocket(client, error instanceof Refused ? 403 : 502, refused(judged.href, error)),
      );
  });

  server.on("connection", (socket) => track(socket));
  server.on("clientError", (_error, socket) => socket.destroy());

  const socketPath = options.listen?.path;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if (socketPath) server.listen(socketPath, () => resolve());
    else server.listen(0, "127.0.0.1", () => resolve());
  });
  if (options.listen) {
    await chown(options.listen.path, options.listen.uid, options.listen.gid);
    await chmod(options.listen.path, 0o600);
  }
  const url = socketPath ? `unix:${socketPath}` : `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;

  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
