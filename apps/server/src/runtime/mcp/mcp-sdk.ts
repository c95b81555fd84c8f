// The MCP client SDK, loaded on first use: importing it costs ~250 ms and ~11 MiB of heap, which a process whose
// agents use no MCP server (or that serves only the API) never needs to pay at start.

async function importSdk() {
  const [client, sse, streamable, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    StreamableHTTPError: streamable.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
}

export type McpSdk = Awaited<ReturnType<typeof importSdk>>;

let loading: Promise<McpSdk> | undefined;
let loaded: McpSdk | undefined;

/** The SDK, imported once (concurrent first calls share the import). */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importSdk().then(
    (sdk) => {
      loaded = sdk;
      return sdk;
    },
    (error) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The SDK if it has been imported: an error can only be one of its classes once it has. */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}
