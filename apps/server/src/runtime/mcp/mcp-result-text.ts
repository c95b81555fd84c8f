import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type ContentBlock = CallToolResult["content"][number];

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${block.mimeType}]`;
    case "audio":
      return `[audio: ${block.mimeType}]`;
    case "resource_link":
      return `[resource: ${block.uri}]`;
    case "resource":
      return "text" in block.resource && typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource: ${block.resource.uri}]`;
    default:
      return "";
  }
}

/**
 * Flattens an MCP tool result to the text a model sees: text blocks joined by newlines, placeholders for
 * binary content, and the structured content as JSON when there are no content blocks.
 */
export function mcpResultText(result: Pick<CallToolResult, "content" | "structuredContent">): string {
  const blocks = result.content ?? [];
  if (blocks.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return blocks
    .map(blockText)
    .filter((text) => text.length > 0)
    .join("\n");
}
