import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound, type EgressProxy, startEgressProxy } from "../../src/lib/outbound/index.js";
import { type Loopback, startLoopback } from "./support.js";

let site: Loopback;
let proxy: EgressProxy;
const refused: string[] = [];

beforeAll(async () => {
  site = await startLoopback((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end("hello through the tunnel");
  });
  // Only 127.0.0.1 is open; `pinned.test` resolves to it, `inside.test` to 127.0.0.2, `mixed.test` to both.
  const names: Record<string, string[]> = {
    "pinned.test": ["127.0.0.1"],
    "inside.test": ["127.0.0.2"],
    "mixed.test": ["127.0.0.1", "10.0.0.1"],
  };
  const outbound = createOutbound({ allowCidrs: "127.0.0.1/32", resolve: async (host) => names[host] ?? [] });
  proxy = await startEgressProxy({
    outbound,
    judge: (url) => (url.hostname === "denied.test" ? "host denied by the test policy" : null),
    onRefused: (target, reason) => refused.push(`${target} ${reason}`),
  });
});

afterAll(async () => {
  await proxy?.close();
  await site?.close();
});

/** Sends `request` to the proxy over a raw socket and returns everything it answers until it closes. */
function exchange(request: string, then?: (socket: Socket, head: string) => void): Promise<string> {
  const port = Number(new URL(proxy.url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let tunnelled = false;
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
      if (!tunnelled && then && received.includes("\r\n\r\n") && received.startsWith("HTTP/1.1 200")) {
        tunnelled = true;
        then(socket, received);
      }
    });
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
    socket.write(request);
  });
}

describe("egress proxy", () => {
  it("tunnels CONNECT to an allowed name, connecting to the address it resolved to", async () => {
    const answer = await exchange(`CONNECT pinned.test:${site.port} HTTP/1.1\r\nHost: pinned.test\r\n\r\n`, (s) =>
      s.write(`GET /x HTTP/1.1\r\nHost: pinned.test:${site.port}\r\nConnection: close\r\n\r\n`),
    );
    expect(answer).toContain("HTTP/1.1 200 Connection Established");
    expect(answer).toContain("hello through the tunnel");
  });

  it("refuses CONNECT to a name resolving to a closed address, or to any closed address among several", async () => {
    for (const host of ["inside.test", "mixed.test", "127.0.0.2"]) {
      const answer = await exchange(`CONNECT ${host}:${site.port} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(answer, host).toMatch(/^HTTP\/1.1 403 Forbidden/);
      expect(answer).toContain("EGRESS_ALLOW_CIDRS");
    }
  });

  it("refuses what the host policy denies, before resolving anything", async () => {
    const answer = await exchange(`CONNECT denied.test:443 HTTP/1.1\r\nHost: denied.test\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1.1 403 Forbidden/);
    expect(answer).toContain("host denied by the test policy");
    expect(refused.some((r) => r.startsWith("denied.test:443"))).toBe(true);
  });

  it("forwards plain HTTP in absolute form to an allowed name and refuses a closed one", async () => {
    const ok = await exchange(
      `GET http://pinned.test:${site.port}/y HTTP/1.1\r\nHost: pinned.test\r\nConnection: close\r\n\r\n`,
    );
    expect(ok).toMatch(/^HTTP\/1.1 200/);
    expect(ok).toContain("hello through the tunnel");
    expect(site.requests.at(-1)).toMatchObject({ url: "/y" });
    expect(site.requests.at(-1)!.headers).not.toHaveProperty("proxy-connection");
    const no = await exchange(
      `GET http://inside.test:${site.port}/z HTTP/1.1\r\nHost: inside.test\r\nConnection: close\r\n\r\n`,
    );
    expect(no).toMatch(/^HTTP\/1.1 403/);
    expect(no.toLowerCase()).toContain("x-agent-platform-egress: refused");
    expect(site.requests.map((r) => r.url)).not.toContain("/z");
  });

  it("answers 400 to a request that is not in absolute form", async () => {
    const answer = await exchange("GET /local HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1.1 400/);
  });
});
