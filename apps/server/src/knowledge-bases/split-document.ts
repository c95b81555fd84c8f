import type pg from "pg";
import { newId } from "../ids.js";
import { chunkText, type TextChunk } from "../retrieval/index.js";

type Queryable = Pick<pg.Pool, "query">;

/** About 4 characters a token: how a base's chunking in tokens becomes characters. */
export const CHARS_PER_TOKEN = 4;

export interface ChunkingSettings {
  chunkMaxTokens: number;
  chunkOverlapTokens: number;
}

/** A document's passages with what is searched and embedded with each: its title and heading path. */
export function splitDocument(
  document: { title: string; content: string; contentType: string },
  settings: ChunkingSettings,
): (TextChunk & { context: string })[] {
  const chunks = chunkText(document.content, {
    maxChars: settings.chunkMaxTokens * CHARS_PER_TOKEN,
    overlapChars: settings.chunkOverlapTokens * CHARS_PER_TOKEN,
    format: document.contentType === "text" ? "text" : "markdown",
  });
  return chunks.map((chunk) => ({ ...chunk, context: [document.title, ...chunk.headingPath].join(" › ") }));
}

/** The text a passage is embedded as: its context line, then the passage. */
export function embeddingInput(chunk: { context: string; content: string }): string {
  return `${chunk.context}\n\n${chunk.content}`;
}

/**
 * Inserts a document's passages (one statement, whatever their number) and records their count on the document. The
 * full-text index covers them at commit: the document is searchable by its words at once.
 */
export async function insertChunks(
  client: Queryable,
  document: { id: string; knowledgeBaseId: string },
  chunks: readonly (TextChunk & { context: string })[],
): Promise<void> {
  await client.query(
    `INSERT INTO knowledge_chunks
       ("id", "documentId", "knowledgeBaseId", "position", "headingPath", "context", "content", "startOffset", "endOffset")
     SELECT c.id, $1, $2, c.position, ARRAY(SELECT jsonb_array_elements_text(c.heading)), c.context, c.content,
            c.start_offset, c.end_offset
     FROM unnest($3::text[], $4::int[], $5::jsonb[], $6::text[], $7::text[], $8::int[], $9::int[])
       AS c(id, position, heading, context, content, start_offset, end_offset)
     ON CONFLICT ("documentId", "position") DO NOTHING`,
    [
      document.id,
      document.knowledgeBaseId,
      chunks.map(() => newId("knowledgeChunk")),
      chunks.map((c) => c.position),
      chunks.map((c) => JSON.stringify(c.headingPath)),
      chunks.map((c) => c.context),
      chunks.map((c) => c.text),
      chunks.map((c) => c.startOffset),
      chunks.map((c) => c.endOffset),
    ],
  );
  await client.query(`UPDATE knowledge_documents SET "chunkCount" = $2 WHERE "id" = $1`, [document.id, chunks.length]);
}
