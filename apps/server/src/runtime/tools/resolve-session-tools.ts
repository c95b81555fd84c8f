import { type AgentConfig, BUILTIN_TOOLS, type BuiltinToolName } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import { loadPinnedServerlessTools } from "../../serverless-tools/index.js";
import { artifactWriteTool } from "./builtin/artifact-write.js";
import { knowledgeReadTool } from "./builtin/knowledge-read.js";
import { knowledgeSearchTool } from "./builtin/knowledge-search.js";
import { memoryListTool } from "./builtin/memory-list.js";
import { memoryReadTool } from "./builtin/memory-read.js";
import { memorySearchTool } from "./builtin/memory-search.js";
import { memoryWriteTool } from "./builtin/memory-write.js";
import { loadPinnedSkills, skillReadTool } from "./builtin/skill-read.js";
import { webFetchTool } from "./builtin/web-fetch.js";
import { serverlessTool } from "./serverless/serverless-tool.js";
import type { RuntimeTool, SessionRuntimeInfo } from "./types.js";

export interface ResolveSessionToolsInput {
  ctx: AppContext;
  session: SessionRuntimeInfo;
  agent: AgentConfig;
  /** The process's browsers (the `browser` tool, from runtime/browser); absent where no worker runs sessions. */
  browser?: { tool(): RuntimeTool };
  /** The process's sandboxes (`bash` and the file tools, from runtime/sandbox); absent where no worker runs sessions. */
  codeExecution?: { tool(name: "bash" | "file_read" | "file_write" | "file_edit" | "file_list"): RuntimeTool };
}

function isBuiltin(name: string): name is BuiltinToolName {
  return Object.hasOwn(BUILTIN_TOOLS, name);
}

/**
 * The tools the platform runs itself for one turn of a session: the built-in tools the agent version lists in `tools`
 * (each only when it means something for this session) followed by its pinned serverless tools. MCP, custom and
 * delegation tools come from elsewhere.
 *
 * - memory_list / memory_read / memory_search: only with at least one memory mount;
 * - memory_write: only with at least one read-write mount (read-only mounts are refused by the tool too);
 * - knowledge_search, knowledge_read: only when the agent has `knowledgeBases`;
 * - skill_read: only when the agent has `skills`;
 * - web_fetch, artifact_write: always when listed;
 * - browser: when listed and the process has browsers (every worker does);
 * - bash, file_read, file_write, file_edit, file_list: when listed and the process runs sessions (every worker does;
 *   where the sandbox probe fails they answer why).
 * A serverless tool whose name is already taken by a built-in tool, or whose pinned version no longer exists, is
 * left out and logged.
 */
export async function resolveSessionTools(input: ResolveSessionToolsInput): Promise<RuntimeTool[]> {
  const { ctx, session, agent } = input;
  const listed = new Set(agent.tools.filter((t): t is BuiltinToolName => typeof t === "string" && isBuiltin(t)));
  const mounts = session.resources;
  const tools: RuntimeTool[] = [];

  for (const name of listed) {
    switch (name) {
      case "web_fetch":
        tools.push(webFetchTool());
        break;
      case "artifact_write":
        tools.push(artifactWriteTool());
        break;
      case "bash":
      case "file_read":
      case "file_write":
      case "file_edit":
      case "file_list":
        if (input.codeExecution) tools.push(input.codeExecution.tool(name));
        else
          ctx.logger.warn(
            { sessionId: session.id, tool: name },
            "code-execution tool listed but this process has none",
          );
        break;
      case "browser":
        if (input.browser) tools.push(input.browser.tool());
        else ctx.logger.warn({ sessionId: session.id }, "browser tool listed but this process has no browsers");
        break;
      case "memory_list":
        if (mounts.length > 0) tools.push(memoryListTool(mounts));
        break;
      case "memory_read":
        if (mounts.length > 0) tools.push(memoryReadTool(mounts));
        break;
      case "memory_search":
        if (mounts.length > 0) tools.push(memorySearchTool(mounts));
        break;
      case "memory_write":
        if (mounts.some((m) => m.mode === "read-write")) tools.push(memoryWriteTool(mounts));
        break;
      case "knowledge_search":
        if (agent.knowledgeBases && agent.knowledgeBases.length > 0) {
          tools.push(knowledgeSearchTool(agent.knowledgeBases));
        }
        break;
      case "knowledge_read":
        if (agent.knowledgeBases && agent.knowledgeBases.length > 0) {
          tools.push(knowledgeReadTool(agent.knowledgeBases));
        }
        break;
      case "skill_read":
        if (agent.skills.length > 0) {
          const pinned = await loadPinnedSkills(ctx.db.prisma, session.workspaceId, agent.skills);
          for (const p of pinned) {
            if (!p.ok) ctx.logger.warn({ sessionId: session.id, skillId: p.skillId, version: p.version }, p.problem);
          }
          tools.push(skillReadTool(pinned));
        }
        break;
      default: {
        const unhandled: never = name;
        ctx.logger.warn({ tool: unhandled }, "built-in tool without an implementation");
      }
    }
  }

  const taken = new Set(tools.map((t) => t.name));
  const pinned = await loadPinnedServerlessTools(ctx.db.pool, session.projectId, agent.serverlessTools);
  const found = new Set(pinned.map((t) => `${t.toolId}@${t.version}`));
  for (const ref of agent.serverlessTools) {
    if (!found.has(`${ref.toolId}@${ref.version}`)) {
      ctx.logger.warn({ sessionId: session.id, ...ref }, "pinned serverless tool version not found; tool left out");
    }
  }
  for (const tool of pinned) {
    if (taken.has(tool.name) || isBuiltin(tool.name)) {
      ctx.logger.warn({ sessionId: session.id, toolId: tool.toolId, name: tool.name }, "serverless tool name taken");
      continue;
    }
    taken.add(tool.name);
    tools.push(serverlessTool(tool));
  }
  return tools;
}
