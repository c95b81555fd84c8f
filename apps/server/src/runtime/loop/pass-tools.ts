import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import { raceAbort } from "../../lib/abort.js";
import { inSpan, measure } from "../../lib/telemetry/instruments.js";
import type { SessionLoopSettings } from "../../sessions/index.js";
import { type McpConnectionSet, openMcpConnections, sessionMcpHeaders, storeMcpResult } from "../mcp/index.js";
import type { SessionRuntimeInfo, ToolResult } from "../tools/types.js";
import type { LoopDeps } from "./deps.js";
import type { ToolUseState } from "./log-state.js";
import { assembleToolset, customTools, mcpTools, type Toolset } from "./toolset.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The tools of one pass: the agent version's toolset and its MCP connections, opened once per pass when first needed,
 * and the running of one tool use.
 */
export class PassTools {
  private readonly ctx: AppContext;
  private toolset: Toolset | undefined;
  private mcp: McpConnectionSet | undefined;

  constructor(
    private readonly deps: LoopDeps,
    private readonly info: SessionRuntimeInfo,
    private readonly settings: SessionLoopSettings,
    private readonly loadAgent: () => Promise<AgentConfig>,
  ) {
    this.ctx = deps.ctx;
  }

  private connections(config: AgentConfig): McpConnectionSet | undefined {
    if (config.mcpServers.length === 0) return undefined;
    this.mcp ??= openMcpConnections(
      config.mcpServers.map((s) => ({ name: s.name, url: s.url })),
      (serverName) => sessionMcpHeaders(this.ctx, this.info, serverName),
      {
        connectTimeoutMs: this.deps.mcpConnectTimeoutMs,
        callTimeoutMs: this.deps.mcpCallTimeoutMs,
        fetch: this.ctx.outbound.fetch,
      },
    );
    return this.mcp;
  }

  async tools(stepSignal: AbortSignal): Promise<Toolset> {
    if (this.toolset) return this.toolset;
    const config = await this.loadAgent();
    const conn = this.connections(config);
    const [provided, listed] = await Promise.all([
      this.deps.resolveTools({ ctx: this.ctx, session: this.info, agent: config }),
      conn ? mcpTools(conn, stepSignal) : Promise.resolve({ tools: [], failures: [] }),
    ]);
    for (const failure of listed.failures) {
      this.ctx.logger.warn(
        { sessionId: this.info.id, serverName: failure.serverName, reason: failure.message },
        "MCP tools unavailable",
      );
    }
    // A listing cut short by an interrupt is not kept: the next step lists again.
    if (stepSignal.aborted) throw stepSignal.reason;
    this.toolset = assembleToolset(
      config,
      [
        provided,
        listed.tools,
        customTools(config),
        this.deps.delegationTools({ session: this.info, agent: config, settings: this.settings }),
      ],
      { readonly: this.settings.readonly, mcpFailures: listed.failures },
    );
    return this.toolset;
  }

  /** Runs one tool use in a `tool.call` span (an MCP call names its server), with its duration by tool and outcome. */
  executeToolUse(use: ToolUseState, stepSignal: AbortSignal): Promise<ToolResult> {
    const attributes = {
      "agent_platform.tool.name": use.name,
      "agent_platform.tool.kind": use.kind,
      ...(use.serverName ? { "agent_platform.mcp.server": use.serverName } : {}),
      "session.id": this.info.id,
    };
    const started = performance.now();
    return inSpan("tool.call", attributes, async (span) => {
      const result = await this.runToolUse(use, stepSignal);
      span.setAttribute("agent_platform.tool.is_error", result.isError === true);
      measure().toolDuration.record((performance.now() - started) / 1000, {
        "agent_platform.tool.name": use.name,
        "agent_platform.tool.is_error": result.isError === true,
      });
      return result;
    });
  }

  private async runToolUse(use: ToolUseState, stepSignal: AbortSignal): Promise<ToolResult> {
    const config = await this.loadAgent();
    if (use.kind === "mcp") {
      const conn = this.connections(config);
      if (!conn || !config.mcpServers.some((s) => s.name === use.serverName)) {
        return { content: `MCP server "${use.serverName}" is not configured on this agent version`, isError: true };
      }
      const result = await raceAbort(conn.callTool(use.name, use.input, stepSignal), stepSignal);
      return storeMcpResult(this.ctx, this.info, { serverName: use.serverName!, toolName: use.toolName! }, result);
    }
    const tools = await this.tools(stepSignal);
    const tool = tools.tools.get(use.name);
    if (!tool?.execute) {
      const known = [...tools.tools.keys()].filter((n) => tools.tools.get(n)?.execute);
      return {
        content: `Unknown tool "${use.name}". Available tools: ${known.length > 0 ? known.join(", ") : "none"}`,
        isError: true,
      };
    }
    if (!isPlainObject(use.input)) return { content: `Input of ${use.name} must be a JSON object`, isError: true };
    try {
      const run = { ctx: this.ctx, session: this.info, agent: config, signal: stepSignal, toolUseId: use.id };
      return await raceAbort(tool.execute(use.input, run), stepSignal);
    } catch (error) {
      if (stepSignal.aborted) throw stepSignal.reason;
      this.ctx.logger.error({ err: error, sessionId: this.info.id, tool: use.name }, "tool threw");
      return {
        content: `${use.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        isError: true,
      };
    }
  }

  /** Closes the MCP connections the pass opened. */
  async close(): Promise<void> {
    await this.mcp?.close();
  }
}
