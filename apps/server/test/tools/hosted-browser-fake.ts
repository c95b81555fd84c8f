import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Loopback, startLoopback } from "./support.js";

/**
 * A stand-in for a hosted browser service: a real Chromium the test starts with `--remote-debugging-port` on loopback,
 * behind a small HTTP service that checks the API key as the service expects it, creates a browser session (answering
 * its CDP WebSocket URL) and records when it is released.
 */
export interface FakeBrowserService {
  /** The session endpoint (`…_SESSION_URL`). */
  sessionUrl: string;
  sessions: Array<{ id: string; region: string | null; released: boolean }>;
  /** Session requests refused for their key. */
  refusedKeys: number;
  http: Loopback;
}

export interface RemoteChromium {
  cdpUrl: string;
  close(): Promise<void>;
}

/** A Chromium reachable over CDP on a loopback port the OS chose. */
export async function startRemoteChromium(executable = "/usr/bin/chromium"): Promise<RemoteChromium> {
  const profile = mkdtempSync(join(tmpdir(), "ap-remote-chromium-"));
  const child: ChildProcess = spawn(
    executable,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    // A process group of its own: closing kills Chromium's helper processes with it.
    { stdio: ["ignore", "ignore", "pipe"], env: { PATH: "/usr/bin:/bin", HOME: profile }, detached: true },
  );
  const cdpUrl = await new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (found) resolve(found[1]!);
    });
    child.once("exit", (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-500)}`)));
  });
  return {
    cdpUrl,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        process.kill(-child.pid!, "SIGKILL");
        await exited;
      }
      // A helper that left the group may still write to the profile for a moment: a leftover temporary directory is
      // not the test's failure.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
      } catch {}
    },
  };
}

/** `dialect` as the two stand-in services differ: where the key goes and how the answer names its fields. */
export async function startFakeBrowserService(
  remote: RemoteChromium,
  apiKey: string,
  dialect: "provider_a_cloud" | "provider_b",
): Promise<FakeBrowserService> {
  const service: Omit<FakeBrowserService, "http" | "sessionUrl"> = { sessions: [], refusedKeys: 0 };
  const http = await startLoopback((req, res, body) => {
    const key =
      dialect === "provider_a_cloud"
        ? (req.headers.authorization ?? "").replace(/^Bearer /, "")
        : String(req.headers["x-api-key"] ?? "");
    if (key !== apiKey) {
      service.refusedKeys++;
      res.writeHead(401, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "invalid api key" }));
      return;
    }
    const released = /^\/sessions\/([^/]+)$/.exec(req.url ?? "");
    if (req.method === "DELETE" && released) {
      const session = service.sessions.find((s) => s.id === decodeURIComponent(released[1]!));
      if (!session) {
        res.writeHead(404).end();
        return;
      }
      session.released = true;
      res.writeHead(204).end();
      return;
    }
    if (req.method === "POST" && req.url === "/sessions") {
      const id = `rs_${service.sessions.length + 1}`;
      const region = (JSON.parse(body || "{}") as { region?: string }).region ?? null;
      service.sessions.push({ id, region, released: false });
      res.writeHead(201, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify(
          dialect === "provider_a_cloud" ? { id, cdpUrl: remote.cdpUrl } : { sessionId: id, connectUrl: remote.cdpUrl },
        ),
      );
      return;
    }
    res.writeHead(404).end();
  });
  return Object.assign(service, { http, sessionUrl: `${http.url}/sessions` });
}
