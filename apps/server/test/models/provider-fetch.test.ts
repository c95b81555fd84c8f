import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerFetch } from "../../src/models/provider-fetch.js";

// The providers' fetch against a real HTTP server, side by side with the global fetch it stands in for.
let server: http.Server;
let base: string;
const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method, headers: req.headers, body });
      if (req.url === "/hang") return;
      if (req.url === "/empty") return res.writeHead(204).end();
      res.setHeader("x-request-id", "abc");
      res.setHeader("x-client-port", String(req.socket.remotePort));
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.writeHead(req.url === "/limited" ? 429 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify({ echoed: body, é: "🙂" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function summary(response: Response) {
  return {
    status: response.status,
    ok: response.ok,
    type: response.headers.get("content-type"),
    requestId: response.headers.get("x-request-id"),
    cookies: response.headers.getSetCookie(),
    body: await response.text(),
  };
}

describe("providerFetch", () => {
  it("sends and answers what the global fetch does", async () => {
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: JSON.stringify({ prompt: "hi" }),
    };
    for (const path of ["/ok", "/limited", "/empty"]) {
      seen.length = 0;
      const ours = await summary(await providerFetch(`${base}${path}`, init));
      const theirs = await summary(await fetch(`${base}${path}`, init));
      expect(ours).toEqual(theirs);
      expect(seen.map((s) => [s.method, s.headers.authorization, s.body])).toEqual([
        ["POST", "Bearer k", init.body],
        ["POST", "Bearer k", init.body],
      ]);
    }
  });

  it("keeps its connection to a provider alive between calls", async () => {
    const port = async () =>
      (await providerFetch(`${base}/ok`, { method: "POST", body: "{}" })).headers.get("x-client-port");
    const first = await port();
    expect(await port()).toBe(first);
  });

  it("fails an unreachable server as the global fetch does: TypeError 'fetch failed' with the socket error as cause", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await providerFetch(url, { method: "POST", body: "{}" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe("fetch failed");
    expect(((error as TypeError).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("rejects with the signal's reason when aborted while waiting for the answer", async () => {
    const controller = new AbortController();
    const pending = providerFetch(`${base}/hang`, { method: "POST", body: "{}", signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(pending).rejects.toThrow("stop");
  });
});
