import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express from "express";
import { z } from "zod";

/**
 * A real MCP server on 127.0.0.1 built with the official SDK. `streamable` speaks the Streamable HTTP
 * transport (stateless, POST /mcp); `sse` speaks only the older HTTP+SSE transport (GET /mcp opens the
 * event stream, POST /messages carries requests), so POST /mcp answers 404 there.
 */

export interface StartMcpServerOptions {
  transport: "streamable" | "sse";
  /** Requests lacking any of these headers (exact value) are answered 401. */
  requiredHeaders?: Record<string, string>;
}

export interface TestMcpServer {
  /** The endpoint a client connects to (`…/mcp`). */
  url: string;
  /** Headers of every HTTP request received, lower-cased names, in order. */
  receivedHeaders: Record<string, string>[];
  /** Tool invocations received, in order. */
  toolCalls: { name: string; arguments: Record<string, unknown> }[];
  /** Texts saved by `write_note`. */
  notes: string[];
  close(): Promise<void>;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new Error("cancelled"));
      },
      { once: true },
    );
  });
}

function buildMcpServer(state: Pick<TestMcpServer, "toolCalls" | "notes">): McpServer {
  const server = new McpServer({ name: "test-mcp-server", version: "1.0.0" });
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

  server.registerTool(
    "echo",
    { description: "Returns the given text", inputSchema: { text: z.string() } },
    async ({ text: value }) => {
      state.toolCalls.push({ name: "echo", arguments: { text: value } });
      return text(value);
    },
  );
  server.registerTool(
    "lorem",
    { description: "Returns a text of the given number of words", inputSchema: { words: z.number().int() } },
    async ({ words }) => {
      state.toolCalls.push({ name: "lorem", arguments: { words } });
      return text(Array.from({ length: words }, (_, i) => `lorem${i % 10}`).join(" "));
    },
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: { a: z.number(), b: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => {
      state.toolCalls.push({ name: "add", arguments: { a, b } });
      return text(String(a + b));
    },
  );
  server.registerTool(
    "write_note",
    {
      description: "Saves a note",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async ({ text: value }) => {
      state.toolCalls.push({ name: "write_note", arguments: { text: value } });
      state.notes.push(value);
      return text(`saved note ${state.notes.length}`);
    },
  );
  server.registerTool(
    "slow",
    { description: "Waits for the given number of milliseconds", inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      state.toolCalls.push({ name: "slow", arguments: { ms } });
      await sleep(ms, extra.signal);
      return text(`waited ${ms} ms`);
    },
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: {} }, async () => {
    state.toolCalls.push({ name: "fail", arguments: {} });
    return { isError: true, content: [{ type: "text" as const, text: "the fail tool failed on purpose" }] };
  });
  return server;
}

function flattenHeaders(headers: express.Request["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

export async function startMcpServer(options: StartMcpServerOptions): Promise<TestMcpServer> {
  const state: Pick<TestMcpServer, "receivedHeaders" | "toolCalls" | "notes"> = {
    receivedHeaders: [],
    toolCalls: [],
    notes: [],
  };
  const sseSessions = new Map<string, SSEServerTransport>();
  const app = express();

  app.use((request, response, next) => {
    const headers = flattenHeaders(request.headers);
    state.receivedHeaders.push(headers);
    const missing = Object.entries(options.requiredHeaders ?? {}).some(
      ([name, value]) => headers[name.toLowerCase()] !== value,
    );
    if (missing) {
      response.status(401).json({ error: "missing or wrong credentials" });
      return;
    }
    next();
  });
  app.use(express.json());

  if (options.transport === "streamable") {
    app.post("/mcp", async (request, response) => {
      // Stateless: a fresh server and transport per request.
      const server = buildMcpServer(state);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // Upcast: the app's own augmentation of express's Request.auth differs from the SDK's AuthInfo.
      await transport.handleRequest(request as IncomingMessage, response, request.body);
    });
    app.all("/mcp", (_request, response) => {
      response.status(405).set("allow", "POST").json({ error: "method not allowed" });
    });
  } else {
    app.get("/mcp", async (_request, response) => {
      const transport = new SSEServerTransport("/messages", response);
      const server = buildMcpServer(state);
      sseSessions.set(transport.sessionId, transport);
      response.on("close", () => {
        sseSessions.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
    });
    app.post("/messages", async (request, response) => {
      const transport = sseSessions.get(String(request.query.sessionId ?? ""));
      if (!transport) {
        response.status(404).json({ error: "unknown session" });
        return;
      }
      await transport.handlePostMessage(request as IncomingMessage, response, request.body);
    });
  }

  const httpServer: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = httpServer.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    ...state,
    close: async () => {
      for (const transport of sseSessions.values()) await transport.close();
      await new Promise<void>((resolve, reject) => {
        httpServer.close((error) => (error ? reject(error) : resolve()));
        httpServer.closeAllConnections();
      });
    },
  };
}
