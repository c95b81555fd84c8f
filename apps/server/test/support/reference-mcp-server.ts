import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The official MCP reference server (`@modelcontextprotocol/server-everything`, a pinned devDependency) speaking
 * Streamable HTTP, behind a small logging proxy on 127.0.0.1. The server reads its listen address from `PORT` and
 * listens on every interface when given a port, so it is given a unix socket path instead (Node's `listen` takes
 * one): nothing outside this machine can reach it, and the proxy, on a loopback port chosen by the OS, is its only
 * door. The proxy records every request (method, headers, JSON-RPC method) on the way.
 */

export interface ProxiedRequest {
  method: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** JSON-RPC method of a POST carrying one request or notification (the first of a batch). */
  rpcMethod?: string;
  /** `params.name` of a `tools/call` or `prompts/get`, `params.uri` of a `resources/read`. */
  rpcTarget?: string;
  /** HTTP status the server answered. */
  status?: number;
}

export interface ReferenceMcpServer {
  /** The endpoint clients connect to (the proxy's `…/mcp`). */
  url: string;
  requests: ProxiedRequest[];
  /** Sessions the server opened (`initialize` requests) and ended on request (`DELETE`s it answered 200). */
  initializeCount(): number;
  deleteCount(): number;
  /** The JSON-RPC methods and targets received, in order (`tools/call get-tiny-image`). */
  rpcCalls(): string[];
  close(): Promise<void>;
}

const ENTRY = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

function flatten(headers: IncomingMessage["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => resolve(Buffer.concat(chunks)));
    incoming.on("error", reject);
  });
}

function describeRpc(body: Buffer): Pick<ProxiedRequest, "rpcMethod" | "rpcTarget"> {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    const message = (Array.isArray(parsed) ? parsed[0] : parsed) as {
      method?: string;
      params?: { name?: string; uri?: string };
    };
    const target = message.params?.name ?? message.params?.uri;
    return {
      ...(message.method ? { rpcMethod: message.method } : {}),
      ...(typeof target === "string" ? { rpcTarget: target } : {}),
    };
  } catch {
    return {};
  }
}

async function startServerProcess(socketPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [ENTRY, "streamableHttp"], {
    env: { PATH: process.env.PATH ?? "", PORT: socketPath },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let stderr = "";
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (stderr.includes("listening")) {
        child.stderr!.off("data", onData);
        child.stderr!.resume();
        resolve();
      }
    };
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`reference MCP server exited (${code}): ${stderr}`)));
  });
  return child;
}

export async function startReferenceMcpServer(): Promise<ReferenceMcpServer> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-everything-"));
  const socketPath = join(dir, "server.sock");
  const child = await startServerProcess(socketPath);
  const requests: ProxiedRequest[] = [];

  const proxy: Server = createServer(async (incoming, outgoing) => {
    const body = await readBody(incoming);
    const entry: ProxiedRequest = {
      method: incoming.method ?? "GET",
      headers: flatten(incoming.headers),
      ...(incoming.method === "POST" ? describeRpc(body) : {}),
    };
    requests.push(entry);
    const forward = request(
      { socketPath, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        entry.status = answer.statusCode;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    // A client that goes away (a closed SSE stream) closes the server side too.
    outgoing.on("close", () => forward.destroy());
    forward.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    initializeCount: () => requests.filter((r) => r.rpcMethod === "initialize").length,
    deleteCount: () => requests.filter((r) => r.method === "DELETE" && r.status === 200).length,
    rpcCalls: () =>
      requests.filter((r) => r.rpcMethod).map((r) => (r.rpcTarget ? `${r.rpcMethod} ${r.rpcTarget}` : r.rpcMethod!)),
    close: async () => {
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      });
      child.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
