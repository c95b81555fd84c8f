import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

// Idle client connections stay open for HTTP_KEEP_ALIVE_TIMEOUT_MS (65 s by default, Node's own is 5 s): clients
// wait on a model between requests. Node announces the timeout on every kept-alive answer.

const apps: TestApp[] = [];

afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

function keepAliveHeader(url: string): Promise<string | undefined> {
  const agent = new http.Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/healthz`, { agent }, (res) => {
        res.resume();
        res.on("end", () => {
          agent.destroy();
          const value = res.headers["keep-alive"];
          resolve(Array.isArray(value) ? value.join(", ") : value);
        });
      })
      .on("error", reject);
  });
}

describe("HTTP keep-alive", () => {
  it("keeps an idle connection 65 s by default", async () => {
    const t = await startTestApp();
    apps.push(t);
    expect(await keepAliveHeader(t.url)).toBe("timeout=65");
  });

  it("follows HTTP_KEEP_ALIVE_TIMEOUT_MS", async () => {
    const t = await startTestApp({ env: { HTTP_KEEP_ALIVE_TIMEOUT_MS: "7000" } });
    apps.push(t);
    expect(await keepAliveHeader(t.url)).toBe("timeout=7");
  });
});
