import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type ConnectedMcpServer,
  connectMcpServer,
  describeMcpError,
  type McpTransportKind,
} from "./connect-mcp-server.js";
import { isPlainObject, listAllTools, runsWithoutTasks, waitOrAbort } from "./mcp-listing.js";
import { blocksText, type McpResultBlock, mcpResultBlocks, type ReadLinkedResource } from "./mcp-result-content.js";
import { loadedMcpSdk } from "./mcp-sdk.js";
import { featureTools, type McpFeature, runFeature } from "./mcp-server-features.js";
import { qualifyMcpToolName, splitMcpToolName } from "./mcp-tool-names.js";

export interface McpServerConfig {
  name: string;
  url: string;
}

/** Headers for a server (credentials included), resolved each time a connection is opened. */
export type ResolveMcpHeaders = (serverName: string) => Promise<Record<string, string>>;

export interface McpConnectionOptions {
  connectTimeoutMs: number;
  /** Bounds each tool call and each page of a tool listing. */
  callTimeoutMs: number;
  /** Every request to the servers goes through it: the platform's outbound fetch (`ctx.outbound.fetch`). */
  fetch: FetchLike;
}

export interface McpToolDescriptor {
  /** `<server>__<tool>`, the name the model sees. */
  name: string;
  serverName: string;
  toolName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's `readOnlyHint` annotation; false when absent (the MCP default). */
  readOnly: boolean;
  /** A resource or prompt tool of the platform's (`mcp-server-features.ts`), not a tool of the server's. */
  feature?: McpFeature;
}

export interface McpServerFailure {
  serverName: string;
  message: string;
}

export interface McpToolList {
  tools: McpToolDescriptor[];
  /** Servers that could not be reached or listed; their tools are missing from `tools`. */
  failures: McpServerFailure[];
}

export interface McpToolResult {
  /** The text view: text blocks, and placeholders for binary content. */
  content: string;
  isError: boolean;
  /** Every block in order, when some are binary (images, audio, binary resources) and need storing. */
  blocks?: McpResultBlock[];
}

export interface McpConnectionSet {
  listTools(signal?: AbortSignal): Promise<McpToolList>;
  /** Never throws: every failure becomes `isError: true` with a readable message. */
  callTool(qualifiedName: string, input: unknown, signal?: AbortSignal): Promise<McpToolResult>;
  /** The transport each connected server ended up using. */
  transports(): Record<string, McpTransportKind>;
  close(): Promise<void>;
}

type ConnectionOutcome = { ok: true; server: ConnectedMcpServer } | { ok: false; message: string };

type KnownTool = { serverName: string; toolName: string; feature?: McpFeature };

const FEATURE_NAMES: ReadonlySet<string> = new Set<McpFeature>(["list_resources", "read_resource", "use_prompt"]);

function abortedResult(): McpToolResult {
  return { content: "MCP tool call was aborted", isError: true };
}

/**
 * The MCP connections of one turn. Servers are connected lazily, once, and reused until `close()`;
 * headers are resolved when a connection opens, so rotated credentials apply to the next set.
 */
export function openMcpConnections(
  servers: readonly McpServerConfig[],
  resolveHeaders: ResolveMcpHeaders,
  options: McpConnectionOptions,
): McpConnectionSet {
  const configs = new Map<string, McpServerConfig>();
  for (const server of servers) {
    if (configs.has(server.name)) throw new Error(`Duplicate MCP server name "${server.name}"`);
    configs.set(server.name, server);
  }
  const connections = new Map<string, Promise<ConnectionOutcome>>();
  const knownTools = new Map<string, KnownTool>();
  const connectedTransports: Record<string, McpTransportKind> = {};
  let closing: Promise<void> | undefined;

  async function connect(config: McpServerConfig): Promise<ConnectionOutcome> {
    let headers: Record<string, string>;
    try {
      headers = await resolveHeaders(config.name);
    } catch (error) {
      return { ok: false, message: `could not resolve headers: ${describeMcpError(error)}` };
    }
    try {
      const server = await connectMcpServer(config.url, headers, options.connectTimeoutMs, options.fetch);
      if (closing) {
        await server.close();
        return { ok: false, message: "connection set is closed" };
      }
      connectedTransports[config.name] = server.transport;
      return { ok: true, server };
    } catch (error) {
      return { ok: false, message: describeMcpError(error) };
    }
  }

  function connection(serverName: string): Promise<ConnectionOutcome> {
    const config = configs.get(serverName);
    if (!config) return Promise.resolve({ ok: false, message: `unknown MCP server "${serverName}"` });
    if (closing) return Promise.resolve({ ok: false, message: "connection set is closed" });
    let outcome = connections.get(serverName);
    if (!outcome) {
      outcome = connect(config);
      connections.set(serverName, outcome);
    }
    return outcome;
  }

  async function listServerTools(
    config: McpServerConfig,
    signal: AbortSignal | undefined,
  ): Promise<McpToolDescriptor[] | McpServerFailure> {
    const outcome = await waitOrAbort(connection(config.name), signal);
    if (outcome === "aborted") return { serverName: config.name, message: "listing aborted" };
    if (!outcome.ok) return { serverName: config.name, message: outcome.message };
    const client = outcome.server.client;
    let descriptors: McpToolDescriptor[];
    try {
      const tools = await listAllTools(client, options.callTimeoutMs, signal);
      descriptors = tools.filter(runsWithoutTasks).map((tool) => ({
        name: qualifyMcpToolName(config.name, tool.name),
        serverName: config.name,
        toolName: tool.name,
        description: tool.description ?? tool.title ?? tool.annotations?.title ?? "",
        inputSchema: tool.inputSchema as Record<string, unknown>,
        readOnly: tool.annotations?.readOnlyHint === true,
      }));
    } catch (error) {
      return { serverName: config.name, message: `listing tools failed: ${describeMcpError(error)}` };
    }
    // Resources and prompts as tools; a listing of prompts that fails leaves them out, not the server's tools.
    const features = await featureTools(client, requestOptions(signal)).catch(() => []);
    const taken = new Set(descriptors.map((d) => d.toolName));
    for (const tool of features) {
      if (taken.has(tool.feature)) continue;
      descriptors.push({
        name: qualifyMcpToolName(config.name, tool.feature),
        serverName: config.name,
        toolName: tool.feature,
        description: tool.description,
        inputSchema: tool.inputSchema,
        readOnly: true,
        feature: tool.feature,
      });
    }
    for (const d of descriptors)
      knownTools.set(d.name, {
        serverName: d.serverName,
        toolName: d.toolName,
        ...(d.feature ? { feature: d.feature } : {}),
      });
    return descriptors;
  }

  function requestOptions(signal: AbortSignal | undefined) {
    return { timeout: options.callTimeoutMs, ...(signal ? { signal } : {}) };
  }

  /**
   * What a qualified name calls. A pass that did not list (a confirmed call after a new pass) lists the server first
   * when the name could be one of the platform's resource or prompt tools, which only a listing tells apart.
   */
  async function targetOf(qualifiedName: string, signal: AbortSignal | undefined): Promise<KnownTool | null> {
    const known = knownTools.get(qualifiedName);
    if (known) return known;
    const split = splitMcpToolName(qualifiedName, configs.keys());
    if (!split || !FEATURE_NAMES.has(split.toolName)) return split;
    await listServerTools(configs.get(split.serverName)!, signal);
    return knownTools.get(qualifiedName) ?? split;
  }

  /** Linked resources are read only from a server that declared the resources capability at initialization. */
  function linkedResourceReader(client: Client, signal: AbortSignal | undefined): ReadLinkedResource | null {
    if (!client.getServerCapabilities()?.resources) return null;
    return async (uri) => {
      try {
        const read = await client.readResource({ uri }, requestOptions(signal));
        return { contents: read.contents };
      } catch (error) {
        return { error: describeMcpError(error) };
      }
    };
  }

  return {
    async listTools(signal) {
      const perServer = await Promise.all([...configs.values()].map((config) => listServerTools(config, signal)));
      const list: McpToolList = { tools: [], failures: [] };
      for (const entry of perServer) {
        if (Array.isArray(entry)) {
          list.tools.push(...entry);
        } else {
          list.failures.push(entry);
        }
      }
      return list;
    },

    async callTool(qualifiedName, input, signal) {
      if (signal?.aborted) return abortedResult();
      const target = await targetOf(qualifiedName, signal);
      if (!target) return { content: `Unknown MCP tool "${qualifiedName}"`, isError: true };
      const args = input ?? {};
      if (!isPlainObject(args)) {
        return { content: `Input of MCP tool "${qualifiedName}" must be a JSON object`, isError: true };
      }
      const outcome = await waitOrAbort(connection(target.serverName), signal);
      if (outcome === "aborted") return abortedResult();
      if (!outcome.ok) {
        return { content: `MCP server "${target.serverName}" is unavailable: ${outcome.message}`, isError: true };
      }
      try {
        const client = outcome.server.client;
        let blocks: McpResultBlock[];
        let isError = false;
        if (target.feature) {
          blocks = await runFeature(client, target.feature, args, requestOptions(signal));
        } else {
          const result = await client.callTool(
            { name: target.toolName, arguments: args },
            undefined,
            requestOptions(signal),
          );
          // The default result schema was used, so this is a CallToolResult and not the legacy `toolResult` form.
          const toolResult = result as CallToolResult;
          blocks = await mcpResultBlocks(toolResult, linkedResourceReader(client, signal));
          isError = toolResult.isError === true;
        }
        const binary = blocks.some((block) => block.type !== "text");
        return { content: blocksText(blocks), isError, ...(binary ? { blocks } : {}) };
      } catch (error) {
        if (signal?.aborted) return abortedResult();
        const sdk = loadedMcpSdk();
        if (sdk && error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
          return {
            content: `MCP tool "${qualifiedName}" timed out after ${options.callTimeoutMs} ms`,
            isError: true,
          };
        }
        return { content: `MCP tool "${qualifiedName}" failed: ${describeMcpError(error)}`, isError: true };
      }
    },

    transports: () => ({ ...connectedTransports }),

    close() {
      closing ??= (async () => {
        const outcomes = await Promise.all(connections.values());
        await Promise.all(outcomes.map((outcome) => (outcome.ok ? outcome.server.close() : undefined)));
      })();
      return closing;
    },
  };
}
