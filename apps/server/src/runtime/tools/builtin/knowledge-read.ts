import { LIMITS } from "@agent-platform/contract";
import { z } from "zod";
import { readKnowledgeDocument, readKnowledgePassage } from "../../../knowledge-bases/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, ok } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";

/**
 * At most this many characters per call (documents hold up to 1 MiB; a model rarely needs that much at once, and a
 * tool result is sent back with every later model call of the turn). The rest is read with `offset`.
 */
export const KNOWLEDGE_READ_MAX_CHARS = 100_000;

/** Characters read on each side of a passage by default (about a passage's length). */
const AROUND_DEFAULT = 1_500;

const Input = z
  .object({
    documentId: z.string().trim().min(1).max(64).optional(),
    offset: z.number().int().min(0).optional(),
    chunkId: z.string().trim().min(1).max(64).optional(),
    around: z.number().int().min(0).max(LIMITS.knowledgeReadAroundMax).optional(),
  })
  .strict()
  .refine((i) => (i.documentId === undefined) !== (i.chunkId === undefined), {
    message: "give either `chunkId` (a passage and the text around it) or `documentId` (the document)",
  });

/**
 * Reads around a passage (`chunkId` of a knowledge_search result), or one whole document, of the knowledge bases the
 * agent version allows (`knowledgeBases`), in its project.
 */
export function knowledgeReadTool(knowledgeBaseIds: readonly string[]): RuntimeTool {
  return defineBuiltinTool({
    name: "knowledge_read",
    description:
      "Read more of the knowledge bases this agent may use: `chunkId` (of a knowledge_search result) reads the " +
      "passage with the text around it (`around` characters each side, default 1500); `documentId` reads the whole " +
      `document, in parts of ${KNOWLEDGE_READ_MAX_CHARS} characters (a part ends with a note giving the \`offset\` ` +
      "of the rest).",
    inputSchema: {
      type: "object",
      properties: {
        chunkId: {
          type: "string",
          maxLength: 64,
          description: "Passage id (`kbchunk_…`) of a knowledge_search result",
        },
        around: {
          type: "integer",
          minimum: 0,
          maximum: LIMITS.knowledgeReadAroundMax,
          description: "With `chunkId`: characters to read on each side of the passage (default 1500)",
        },
        documentId: { type: "string", maxLength: 64, description: "Document id (`kbdoc_…`)" },
        offset: {
          type: "integer",
          minimum: 0,
          description: "Character to start from (default 0); given by the note at the end of a part",
        },
      },
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      if (input.chunkId !== undefined) {
        const passage = await readKnowledgePassage(
          run.ctx.db.pool,
          run.session.projectId,
          knowledgeBaseIds,
          input.chunkId,
          input.around ?? AROUND_DEFAULT,
        );
        if (!passage) return fail(`No passage ${input.chunkId} in the knowledge bases this agent may use`);
        const section = passage.headingPath.length ? `, section "${passage.headingPath.join(" › ")}"` : "";
        return ok(
          `[document ${passage.documentId} ("${passage.title}")${section}: characters ${passage.from} to ` +
            `${passage.to} of ${passage.length}; the passage is ${passage.startOffset} to ${passage.endOffset}]\n\n` +
            passage.text,
        );
      }
      const documentId = input.documentId!;
      const offset = input.offset ?? 0;
      const part = await readKnowledgeDocument(
        run.ctx.db.pool,
        run.session.projectId,
        knowledgeBaseIds,
        documentId,
        offset,
        KNOWLEDGE_READ_MAX_CHARS,
      );
      if (!part) return fail(`No document ${documentId} in the knowledge bases this agent may use`);
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
