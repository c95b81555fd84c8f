import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";

type ContentBlock = CallToolResult["content"][number];
type ResourceContents = ReadResourceResult["contents"][number];

/** One block of an MCP result as the runtime keeps it: text, or binary content (base64) to be stored. */
export type McpResultBlock =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; mimeType: string; data: string }
  | { type: "resource"; uri: string; mimeType: string; data: string };

/** Reads a linked resource (`resources/read`); null when the server offers no resources or the read failed. */
export type ReadLinkedResource = (uri: string) => Promise<{ contents: ResourceContents[] } | { error: string }>;

export const MCP_RESULT_LIMITS = {
  /** Text of embedded and linked resources kept per result (the rest is cut, with a note). */
  resourceTextChars: 100_000,
  /** Linked resources read per result; further links stay links. */
  linkedResources: 8,
} as const;

function resourceBlocks(uri: string, contents: ResourceContents[], budget: { chars: number }): McpResultBlock[] {
  const blocks: McpResultBlock[] = [];
  for (const content of contents) {
    if ("text" in content && typeof content.text === "string") {
      const kept = content.text.slice(0, Math.max(0, budget.chars));
      budget.chars -= kept.length;
      const cut =
        kept.length < content.text.length ? `\n[cut: ${content.text.length - kept.length} more characters]` : "";
      blocks.push({ type: "text", text: `[resource ${content.uri ?? uri}]\n${kept}${cut}` });
    } else if ("blob" in content && typeof content.blob === "string") {
      blocks.push({
        type: "resource",
        uri: content.uri ?? uri,
        mimeType: content.mimeType ?? "application/octet-stream",
        data: content.blob,
      });
    }
  }
  return blocks;
}

/**
 * The blocks of a tool result in order: text as is, images and audio as binary blocks, embedded resources read into the
 * result (text within `MCP_RESULT_LIMITS.resourceTextChars`, binary as blocks), linked resources read the same way
 * when the server offers resources (the first `linkedResources` of them; the others are named). The structured
 * content, as JSON, when there are no content blocks.
 */
export async function mcpResultBlocks(
  result: Pick<CallToolResult, "content" | "structuredContent">,
  readLinked: ReadLinkedResource | null,
): Promise<McpResultBlock[]> {
  const content: ContentBlock[] = result.content ?? [];
  if (content.length === 0 && result.structuredContent !== undefined) {
    return [{ type: "text", text: JSON.stringify(result.structuredContent) }];
  }
  const budget = { chars: MCP_RESULT_LIMITS.resourceTextChars };
  let linksRead = 0;
  const blocks: McpResultBlock[] = [];
  for (const block of content) {
    switch (block.type) {
      case "text":
        blocks.push({ type: "text", text: block.text });
        break;
      case "image":
      case "audio":
        blocks.push({ type: block.type, mimeType: block.mimeType, data: block.data });
        break;
      case "resource":
        blocks.push(...resourceBlocks(block.resource.uri, [block.resource], budget));
        break;
      case "resource_link": {
        if (!readLinked || linksRead >= MCP_RESULT_LIMITS.linkedResources) {
          blocks.push({ type: "text", text: `[resource link: ${block.uri}]` });
          break;
        }
        linksRead++;
        const read = await readLinked(block.uri);
        if ("error" in read)
          blocks.push({ type: "text", text: `[resource ${block.uri} could not be read: ${read.error}]` });
        else blocks.push(...resourceBlocks(block.uri, read.contents, budget));
        break;
      }
    }
  }
  return blocks;
}

/** How binary content reads where only text goes (a tool result's text view, before it is stored). */
export function binaryPlaceholder(block: Exclude<McpResultBlock, { type: "text" }>): string {
  return block.type === "resource"
    ? `[resource: ${block.uri} (${block.mimeType})]`
    : `[${block.type}: ${block.mimeType}]`;
}

/** The text of blocks: text joined by newlines, placeholders for binary content. */
export function blocksText(blocks: readonly McpResultBlock[]): string {
  return blocks
    .map((block) => (block.type === "text" ? block.text : binaryPlaceholder(block)))
    .filter((text) => text.length > 0)
    .join("\n");
}
