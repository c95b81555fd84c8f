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
    mode: z.enum(["hybrid", "semantic", "fulltext"]).optional(),
    filter: z
      .object({ metadata: z.record(z.string().max(64), z.string().max(512)).optional() })
      .strict()
      .optional(),
  })
  .strict();

/**
 * Searches only the knowledge bases the agent version allows (`knowledgeBases`), within the session's project. Each
 * passage comes with a citation (`[n]`, document, title, heading path, character offsets) the model can quote and
 * `knowledge_read` can open; the tool result in the log is the record of what was retrieved.
 */
export function knowledgeSearchTool(knowledgeBaseIds: readonly string[]): RuntimeTool {
  return defineBuiltinTool({
    name: "knowledge_search",
    description:
      "Search the knowledge bases this agent may use for passages that answer a question: by meaning and by words " +
      "(hybrid), best first. Each result is a passage with a citation: cite it as [n] with its title; open more " +
      'text around it with knowledge_read (`chunkId`). Full-text syntax also works: "exact phrase", `or`, `-word`.',
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          maxLength: LIMITS.knowledgeQueryLength,
          description: "The question or the words to look for",
        },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: LIMITS.knowledgeSearchResults,
          description: "At most this many passages (default 5)",
        },
        mode: {
          type: "string",
          enum: ["hybrid", "semantic", "fulltext"],
          description: "`hybrid` (default): meaning and words; `semantic`: meaning only; `fulltext`: words only",
        },
        filter: {
          type: "object",
          properties: {
            metadata: {
              type: "object",
              additionalProperties: { type: "string" },
              description: "Only documents whose metadata has these values",
            },
          },
          additionalProperties: false,
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const result = await searchKnowledge(run.ctx, {
        projectId: run.session.projectId,
        knowledgeBaseIds,
        query: input.query,
        limit: input.limit ?? 5,
        mode: input.mode ?? "hybrid",
        ...(input.filter ? { filter: input.filter } : {}),
        agentId: run.session.agentId,
        signal: run.signal,
      });
      const note = result.retrievers.semantic?.error
        ? { note: `Searched by words only: ${result.retrievers.semantic.error}` }
        : {};
      if (result.data.length === 0) return json({ results: [], note: "No passage matches the query", ...note });
      return json({
        results: result.data.map((hit, i) => ({
          citation: `[${i + 1}]`,
          chunkId: hit.chunkId,
          documentId: hit.documentId,
          title: hit.title,
          ...(hit.headingPath.length ? { section: hit.headingPath.join(" › ") } : {}),
          offsets: [hit.startOffset, hit.endOffset],
          text: hit.text,
          score: Number(hit.score.toFixed(4)),
          foundBy: Object.keys(hit.foundBy),
          ...(Object.keys(hit.metadata).length ? { metadata: hit.metadata } : {}),
        })),
        ...note,
      });
    },
  });
}
