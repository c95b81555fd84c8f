import net from "node:net";

/**
 * A TCP relay on loopback in front of a real server (PostgreSQL here), to take it out of reach and bring it back the
 * way an outage does: `cut` drops every open connection and refuses new ones, `restore` listens on the same port again.
 */
export interface TcpRelay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** `dropConnection(n)`: the n-th connection (1, 2, …) is closed as soon as it is accepted, as a server going down. */
export async function startTcpRelay(
  target: { host: string; port: number },
  options: { dropConnection?: (n: number) => boolean } = {},
): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    if (options.dropConnection?.(++connections)) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const port = await listen(0);
  return { port, cut: stop, restore: () => listen(port).then(() => {}), close: stop };
}
