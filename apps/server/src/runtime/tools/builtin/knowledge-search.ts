import { LIMITS } from "@agent-platform/contract";
import { z } from "zod";
import { searchKnowledge } from "../../../knowledge-bases/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { json } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";

const Input = z
  .object({
    query: z.string().trim().min(1).max(LIMITS.knowledgeQueryLength),
    limit: z.number().int().min(1).max(LIMITS.knowledgeSearchResults).optional(),
  })
  .strict();

/** Searches only the knowledge bases the agent version allows (`knowledgeBases`), within the session's project. */
export function knowledgeSearchTool(knowledgeBaseIds: readonly string[]): RuntimeTool {
  return defineBuiltinTool({
    name: "knowledge_search",
    description:
      "Full-text search over the documents of the knowledge bases this agent may use; best matches first, each " +
      'with a snippet (matched words between **). Query syntax: words, "exact phrase", `or`, `-excluded`.',
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", maxLength: LIMITS.knowledgeQueryLength, description: "What to look for" },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: LIMITS.knowledgeSearchResults,
          description: "At most this many documents (default 5)",
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const hits = await searchKnowledge(
        run.ctx.db.pool,
        run.session.projectId,
        knowledgeBaseIds,
        input.query,
        input.limit ?? 5,
      );
      if (hits.length === 0) return json({ results: [], note: "No document matches the query" });
      return json({
        results: hits.map((hit) => ({
          documentId: hit.documentId,
          knowledgeBaseId: hit.knowledgeBaseId,
          title: hit.title,
          snippet: hit.snippet,
          score: Number(hit.score.toFixed(4)),
          ...(Object.keys(hit.metadata).length ? { metadata: hit.metadata } : {}),
        })),
      });
    },
  });
}
