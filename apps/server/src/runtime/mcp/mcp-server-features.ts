import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { type McpResultBlock, mcpResultBlocks } from "./mcp-result-content.js";

/**
 * A server's resources and prompts offered to the model as tools of the server's namespace, for servers that declared
 * the `resources` / `prompts` capability when the session was initialized:
 * - `<server>__list_resources`: the resources and resource templates it offers;
 * - `<server>__read_resource` `{ uri }`: one resource, read into the result like a tool's embedded resource;
 * - `<server>__use_prompt` `{ name, arguments? }`: one of its prompts, rendered as the messages it gives.
 * A tool of the server's own with the same name takes precedence.
 */
export type McpFeature = "list_resources" | "read_resource" | "use_prompt";

export interface McpFeatureTool {
  feature: McpFeature;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Resources and prompts listed at most (pages × entries bound what a listing costs). */
const MAX_PAGES = 20;
const MAX_ENTRIES = 500;

type RequestOptions = { timeout: number; signal?: AbortSignal };

async function allPrompts(client: Client, options: RequestOptions): Promise<Prompt[]> {
  const prompts: Prompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && prompts.length < MAX_ENTRIES; page++) {
    const result = await client.listPrompts(cursor ? { cursor } : undefined, options);
    prompts.push(...result.prompts);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return prompts.slice(0, MAX_ENTRIES);
}

function describePrompt(prompt: Prompt): string {
  const args = (prompt.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ");
  const about = prompt.description ?? prompt.title ?? "";
  return `- ${prompt.name}(${args})${about ? `: ${about}` : ""}`;
}

/** The feature tools a server's declared capabilities call for (its prompts are listed into `use_prompt`). */
export async function featureTools(client: Client, options: RequestOptions): Promise<McpFeatureTool[]> {
  const capabilities = client.getServerCapabilities() ?? {};
  const tools: McpFeatureTool[] = [];
  if (capabilities.resources) {
    tools.push(
      {
        feature: "list_resources",
        description: "Lists the resources (and URI templates of resources) this MCP server offers.",
        inputSchema: { type: "object", properties: {} },
      },
      {
        feature: "read_resource",
        description: "Reads one resource of this MCP server by its URI.",
        inputSchema: {
          type: "object",
          properties: { uri: { type: "string", description: "The resource's URI" } },
          required: ["uri"],
        },
      },
    );
  }
  if (capabilities.prompts) {
    const prompts = await allPrompts(client, options);
    if (prompts.length > 0) {
      tools.push({
        feature: "use_prompt",
        description: `Gets one of this MCP server's prompts, filled with the arguments, as the messages it gives:\n${prompts.map(describePrompt).join("\n")}`,
        inputSchema: {
          type: "object",
          properties: {
            name: { type: "string", enum: prompts.map((p) => p.name), description: "The prompt" },
            arguments: {
              type: "object",
              additionalProperties: { type: "string" },
              description: "The prompt's arguments by name",
            },
          },
          required: ["name"],
        },
      });
    }
  }
  return tools;
}

async function listResources(client: Client, options: RequestOptions): Promise<McpResultBlock[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && lines.length < MAX_ENTRIES; page++) {
    const result = await client.listResources(cursor ? { cursor } : undefined, options);
    for (const r of result.resources) {
      lines.push(
        `${r.uri} — ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? `: ${r.description}` : ""}`,
      );
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  const templates = await client.listResourceTemplates(undefined, options).catch(() => ({ resourceTemplates: [] }));
  for (const tpl of templates.resourceTemplates.slice(0, MAX_ENTRIES)) {
    lines.push(`${tpl.uriTemplate} (template) — ${tpl.name}${tpl.description ? `: ${tpl.description}` : ""}`);
  }
  return [{ type: "text", text: lines.length > 0 ? lines.slice(0, MAX_ENTRIES * 2).join("\n") : "No resources." }];
}

function promptBlocks(result: GetPromptResult): Promise<McpResultBlock[]> {
  // A prompt message's content is one content block, the same kinds a tool result holds.
  const content = result.messages.flatMap((m) => [{ type: "text" as const, text: `[${m.role}]` }, m.content]);
  const intro = result.description ? [{ type: "text" as const, text: result.description }] : [];
  return mcpResultBlocks({ content: [...intro, ...content] }, null);
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}

/** Runs a feature tool; throws what the client throws (the caller turns it into an error result). */
export async function runFeature(
  client: Client,
  feature: McpFeature,
  input: Record<string, unknown>,
  options: RequestOptions,
): Promise<McpResultBlock[]> {
  switch (feature) {
    case "list_resources":
      return listResources(client, options);
    case "read_resource": {
      if (typeof input.uri !== "string" || input.uri === "") throw new Error("`uri` must be a non-empty string");
      const uri = input.uri;
      return mcpResultBlocks({ content: [{ type: "resource_link", uri, name: uri }] }, async () => {
        const read = await client.readResource({ uri }, options);
        return { contents: read.contents };
      });
    }
    case "use_prompt": {
      if (typeof input.name !== "string") throw new Error("`name` must be the name of one of the server's prompts");
      const result = await client.getPrompt({ name: input.name, arguments: stringRecord(input.arguments) }, options);
      return promptBlocks(result);
    }
  }
}
