import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { findAddressRefusal } from "../../lib/outbound/index.js";
import { loadedMcpSdk, loadMcpSdk, type McpSdk } from "./mcp-sdk.js";

export type McpTransportKind = "streamable-http" | "sse";

export interface ConnectedMcpServer {
  client: Client;
  transport: McpTransportKind;
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
    // Closing also stops the SSE EventSource from reconnecting in the background.
    await client.close().catch(() => {});
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
      return { client: await connectWith(sdk, transport, timer.signal, timeoutMs), transport: "streamable-http" };
    } catch (error) {
      if (!speaksOnlyLegacySse(sdk, error)) throw error;
    }
    const transport = new sdk.SSEClientTransport(endpoint, { requestInit: { headers }, fetch });
    return { client: await connectWith(sdk, transport, timer.signal, timeoutMs), transport: "sse" };
  } finally {
    clearTimeout(timeout);
  }
}
