import { z } from "zod";
import { readKnowledgeDocument } from "../../../knowledge-bases/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, ok } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";

/**
 * At most this many characters per call (documents hold up to 1 MiB; a model rarely needs that much at once, and a
 * tool result is sent back with every later model call of the turn). The rest is read with `offset`.
 */
export const KNOWLEDGE_READ_MAX_CHARS = 100_000;

const Input = z
  .object({
    documentId: z.string().trim().min(1).max(64),
    offset: z.number().int().min(0).optional(),
  })
  .strict();

/** Reads one whole document of the knowledge bases the agent version allows (`knowledgeBases`), in its project. */
export function knowledgeReadTool(knowledgeBaseIds: readonly string[]): RuntimeTool {
  return defineBuiltinTool({
    name: "knowledge_read",
    description:
      "Read the whole text of one document of the knowledge bases this agent may use, by its id (`documentId` of a " +
      `knowledge_search result). Long documents come in parts of ${KNOWLEDGE_READ_MAX_CHARS} characters: the text ` +
      "then ends with a note giving the `offset` to read the rest.",
    inputSchema: {
      type: "object",
      properties: {
        documentId: { type: "string", maxLength: 64, description: "Document id (`kbdoc_…`)" },
        offset: {
          type: "integer",
          minimum: 0,
          description: "Character to start from (default 0); given by the note at the end of a part",
        },
      },
      required: ["documentId"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const offset = input.offset ?? 0;
      const part = await readKnowledgeDocument(
        run.ctx.db.pool,
        run.session.projectId,
        knowledgeBaseIds,
        input.documentId,
        offset,
        KNOWLEDGE_READ_MAX_CHARS,
      );
      if (!part) return fail(`No document ${input.documentId} in the knowledge bases this agent may use`);
      if (offset > 0 && offset >= part.length) {
        return fail(`Document ${part.documentId} has ${part.length} characters: offset ${offset} is past its end`);
      }
      const end = offset + [...part.content].length;
      if (offset === 0 && end === part.length) return ok(part.content);
      const rest =
        end < part.length ? `; call knowledge_read with offset ${end} to read on` : "; this is the end of the document";
      return ok(
        `${part.content}\n\n[cut: characters ${offset} to ${end} of ${part.length} of document ` +
          `${part.documentId} ("${part.title}")${rest}]`,
      );
    },
  });
}
