import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installFastJson } from "../../src/http/fast-json.js";

// The app's `res.json` must send what Express's own sends, byte for byte and header for header, in every case: the
// fast path's and the cases it hands back to Express. Two apps with the same handlers, one with `installFastJson`,
// answer the same raw requests.

const LARGE = { id: "agt_1", system: "Be brief. ".repeat(200), tools: [{ name: "é漢😀", input: { n: 1.5 } }] };

function appWith(fast: boolean): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  if (fast) installFastJson(app);
  app.all("/small", (_req, res) => void res.json({ ok: true, n: 1 }));
  app.all("/large", (_req, res) => void res.status(201).json(LARGE));
  app.all("/null", (_req, res) => void res.json(null));
  app.all("/string", (_req, res) => void res.json("just text"));
  app.all("/undefined", (_req, res) => void res.json(undefined));
  app.all("/no-content", (_req, res) => void res.status(204).json({ ignored: true }));
  app.all("/reset", (_req, res) => void res.status(205).json({ ignored: true }));
  app.all("/typed", (_req, res) => void res.type("application/problem+json").status(400).json({ title: "Bad" }));
  app.all("/two-args", (_req, res) => void (res.json as (status: number, body: unknown) => void)(202, { legacy: 1 }));
  return app;
}

interface Raw {
  status: number;
  headers: [string, string][];
  body: string;
}

function listen(app: express.Express): Promise<http.Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve(server));
  });
}

function ask(server: http.Server, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = res.rawHeaders;
          const pairs: [string, string][] = [];
          for (let i = 0; i < raw.length; i += 2)
            if (raw[i]!.toLowerCase() !== "date") pairs.push([raw[i]!, raw[i + 1]!]);
          resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks).toString("utf8") });
        });
      })
      .on("error", reject)
      .end();
  });
}

let plain: http.Server;
let fast: http.Server;

beforeAll(async () => {
  plain = await listen(appWith(false));
  fast = await listen(appWith(true));
});

afterAll(async () => {
  await Promise.all([plain, fast].map((s) => new Promise((resolve) => s.close(resolve))));
});

const cases: [string, string, string, Record<string, string>?][] = [
  ["a small object", "GET", "/small"],
  ["a body over 1,000 characters with multi-byte text, status 201", "POST", "/large"],
  ["null", "GET", "/null"],
  ["a string", "GET", "/string"],
  ["undefined (Express's path)", "GET", "/undefined"],
  ["204: no body, no content headers", "DELETE", "/no-content"],
  ["205", "POST", "/reset"],
  ["a Content-Type set before (Express's path)", "GET", "/typed"],
  ["the two-argument form (Express's path)", "GET", "/two-args"],
  ["HEAD: the headers without the body", "HEAD", "/large"],
  ["a conditional GET with If-None-Match: * (Express's freshness check)", "GET", "/small", { "If-None-Match": "*" }],
  [
    "a conditional GET with If-Modified-Since",
    "GET",
    "/small",
    { "If-Modified-Since": "Sat, 28 Nov 2026 00:00:00 GMT" },
  ],
];

describe("res.json", () => {
  it.each(cases)("sends what Express sends: %s", async (_name, method, path, headers) => {
    const expected = await ask(plain, method, path, headers);
    const actual = await ask(fast, method, path, headers);
    expect(actual).toEqual(expected);
  });

  it("sends one Content-Length that counts bytes, not characters", async () => {
    const res = await ask(fast, "POST", "/large");
    expect(res.headers.filter(([name]) => name.toLowerCase() === "content-length")).toEqual([
      ["Content-Length", String(Buffer.byteLength(JSON.stringify(LARGE)))],
    ]);
    expect(JSON.parse(res.body)).toEqual(LARGE);
  });
});
