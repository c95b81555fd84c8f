import type { McpToolResultContent } from "@agent-platform/contract";
import { ArtifactLimitError, writeArtifact } from "../../artifacts/index.js";
import type { AppContext } from "../../context.js";
import type { SessionRuntimeInfo, ToolResult } from "../tools/types.js";
import type { McpToolResult } from "./mcp-connections.js";
import { binaryPlaceholder, type McpResultBlock } from "./mcp-result-content.js";

type BinaryBlock = Exclude<McpResultBlock, { type: "text" }>;

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "application/pdf": "pdf",
  "application/gzip": "gz",
  "application/json": "json",
};

/** A name that sorts a server's tool outputs together: `mcp/<server>/<tool>-<n>.<ext>` (each call a new version). */
function artifactName(serverName: string, toolName: string, index: number, mimeType: string): string {
  const safe = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60);
  const extension = EXTENSIONS[mimeType.toLowerCase()] ?? "bin";
  return `mcp/${safe(serverName)}/${safe(toolName)}-${index}.${extension}`;
}

/**
 * The tool result of an MCP call for the log: binary blocks (images, audio, binary resources) are stored as artifacts
 * of the session and referenced by id, never pasted into the log; text stays text. A block that cannot be stored (too
 * large, the session's artifact limit reached) becomes a text note saying why.
 */
export async function storeMcpResult(
  ctx: Pick<AppContext, "db">,
  session: Pick<SessionRuntimeInfo, "id" | "projectId">,
  tool: { serverName: string; toolName: string },
  result: McpToolResult,
): Promise<ToolResult> {
  if (!result.blocks) return { content: result.content, isError: result.isError };
  const parts: McpToolResultContent = [];
  let index = 0;
  for (const block of result.blocks) {
    if (block.type === "text") {
      parts.push(block);
      continue;
    }
    parts.push(
      await storeBlock(ctx, session, artifactName(tool.serverName, tool.toolName, ++index, block.mimeType), block),
    );
  }
  const text = parts.map((part) => (part.type === "text" ? part.text : `[${part.type}: ${part.mimeType}]`)).join("\n");
  return { content: text, isError: result.isError, parts };
}

async function storeBlock(
  ctx: Pick<AppContext, "db">,
  session: Pick<SessionRuntimeInfo, "id" | "projectId">,
  name: string,
  block: BinaryBlock,
): Promise<McpToolResultContent[number]> {
  const data = Buffer.from(block.data, "base64");
  try {
    const written = await writeArtifact(ctx.db.pool, {
      sessionId: session.id,
      projectId: session.projectId,
      name,
      content: data,
      contentType: block.mimeType,
    });
    const media = { mimeType: block.mimeType, artifactId: written.id, bytes: written.bytes };
    return block.type === "resource" ? { type: "resource", uri: block.uri, ...media } : { type: block.type, ...media };
  } catch (error) {
    if (!(error instanceof ArtifactLimitError)) throw error;
    return { type: "text", text: `${binaryPlaceholder(block)} not stored: ${error.message}` };
  }
}
