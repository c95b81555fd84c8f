import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { findAddressRefusal } from "../../lib/outbound/index.js";
import { loadedMcpSdk, loadMcpSdk, type McpSdk } from "./mcp-sdk.js";

export type McpTransportKind = "streamable-http" | "sse";

export interface ConnectedMcpServer {
  client: Client;
  transport: McpTransportKind;
  /** Ends the MCP session (Streamable HTTP: the protocol's `DELETE`, bounded in time), then closes the client. */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: "agent-platform", version: "0.1.0" };

/**
 * A 4xx answer to the initialize POST means the server predates Streamable HTTP (the backwards
 * compatibility rule of the MCP spec). 401/403 are credential problems, not protocol ones.
 */
function speaksOnlyLegacySse(sdk: McpSdk, error: unknown): boolean {
  if (!(error instanceof sdk.StreamableHTTPError)) return false;
  const status = error.code ?? 0;
  return status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** A message for logs and tool results; never includes request headers. */
export function describeMcpError(error: unknown): string {
  const refusal = findAddressRefusal(error);
  if (refusal) return refusal.message;
  const sdk = loadedMcpSdk();
  if (sdk && (error instanceof sdk.StreamableHTTPError || error instanceof sdk.SseError)) {
    const status = error.code !== undefined && error.code > 0 ? `HTTP ${error.code}` : "protocol error";
    const hint = error.code === 401 || error.code === 403 ? " (credentials rejected)" : "";
    return `${status}${hint}: ${error.message}`;
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** How long the `DELETE` that ends a session may take before the client is closed anyway. */
const TERMINATE_TIMEOUT_MS = 5_000;

/**
 * Ends a Streamable HTTP session the way the protocol says (an HTTP `DELETE` carrying `Mcp-Session-Id`; a 405 means
 * the server keeps no sessions), then closes the client, which aborts a `DELETE` still waiting. `Client.close()` alone
 * only drops the connection: a stateful server would keep the session (and whatever it runs for it) forever.
 */
async function endSession(client: Client, transport: Transport, timeoutMs: number): Promise<void> {
  const sdk = loadedMcpSdk();
  if (sdk && transport instanceof sdk.StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      transport.terminateSession().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.min(timeoutMs, TERMINATE_TIMEOUT_MS));
      }),
    ]);
    clearTimeout(timer);
  }
  await client.close().catch(() => {});
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

async function connectWith(
  sdk: McpSdk,
  transport: Transport,
  deadline: AbortSignal,
  timeoutMs: number,
): Promise<Client> {
  const client = new sdk.Client(CLIENT_INFO);
  try {
    // The race also bounds SSE's transport start (waiting for the endpoint event), which the
    // request timeout of `connect` does not cover.
    await Promise.race([client.connect(transport, { signal: deadline, timeout: timeoutMs }), rejectOnAbort(deadline)]);
    return client;
  } catch (error) {
    // The server may have opened a session before the failure (initialize answered, then a timeout): end it too.
    // Closing also stops the SSE EventSource from reconnecting in the background.
    await endSession(client, transport, timeoutMs);
    throw deadline.aborted ? new Error(`connection timed out after ${timeoutMs} ms`) : error;
  }
}

/**
 * Connects to one MCP server over Streamable HTTP, falling back to the older HTTP+SSE transport when
 * the server rejects the POST. `headers` go on every request of either transport, and every request goes through
 * `fetch` (the platform's outbound fetch, which pins each connection to an address the policy allows).
 */
export async function connectMcpServer(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  fetch: FetchLike,
): Promise<ConnectedMcpServer> {
  const endpoint = new URL(url);
  const sdk = await loadMcpSdk();
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  try {
    try {
      const transport = new sdk.StreamableHTTPClientTransport(endpoint, { requestInit: { headers }, fetch });
      const client = await connectWith(sdk, transport, timer.signal, timeoutMs);
      return { client, transport: "streamable-http", close: () => endSession(client, transport, timeoutMs) };
    } catch (error) {
      if (!speaksOnlyLegacySse(sdk, error)) throw error;
    }
    const transport = new sdk.SSEClientTransport(endpoint, { requestInit: { headers }, fetch });
    const client = await connectWith(sdk, transport, timer.signal, timeoutMs);
    return { client, transport: "sse", close: () => endSession(client, transport, timeoutMs) };
  } finally {
    clearTimeout(timeout);
  }
}
