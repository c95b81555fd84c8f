import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppServer } from "../../src/http/app-server.js";

// The platform's server makes requests and responses with the app's prototypes from the start, so that Express has
// nothing to change on them (see app-server.ts); they must stay Node's and Express's objects in every other way.

const app = express();
const seen: { requestProto: boolean; responseProto: boolean; nodeClasses: boolean }[] = [];
app.post("/echo/:id", express.json(), (req, res) => {
  res.status(201).json({ id: req.params.id, q: req.query.q, body: req.body, path: req.path, host: req.hostname });
});

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = createAppServer(app);
  // Before Express sees them (its first middleware would set the prototypes itself).
  server.prependListener("request", (req, res) => {
    seen.push({
      requestProto: Object.getPrototypeOf(req) === app.request,
      responseProto: Object.getPrototypeOf(res) === app.response,
      nodeClasses: req instanceof http.IncomingMessage && res instanceof http.ServerResponse,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("createAppServer", () => {
  it("hands Express requests and responses that already have the app's prototypes", async () => {
    seen.length = 0;
    const res = await fetch(`${base}/echo/7?q=x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: [1, 2] }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: "7", q: "x", body: { a: [1, 2] }, path: "/echo/7", host: "127.0.0.1" });
    expect(seen).toEqual([{ requestProto: true, responseProto: true, nodeClasses: true }]);
  });

  it("keeps Node's behaviour for a request that ends early and for keep-alive", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ask = () =>
      new Promise<number>((resolve, reject) => {
        http
          .request(`${base}/missing`, { method: "GET", agent }, (r) => {
            r.resume();
            r.on("end", () => resolve(r.statusCode!));
          })
          .on("error", reject)
          .end();
      });
    expect(await ask()).toBe(404);
    expect(await ask()).toBe(404);
    agent.destroy();
  });
});
