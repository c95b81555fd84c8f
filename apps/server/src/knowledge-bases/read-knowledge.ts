import type pg from "pg";

type Queryable = Pick<pg.Pool, "query">;

// One round trip: the document, scoped to the allowed bases of the project, with only the part asked for. Offsets and
// lengths are in characters (code points), as PostgreSQL's substr and char_length count them.
const READ_SQL = `
SELECT d."id", d."knowledgeBaseId", d."title", d."metadata",
       char_length(d."content") AS "length", substr(d."content", $4::int + 1, $5::int) AS "content"
FROM knowledge_documents d
JOIN knowledge_bases kb ON kb."id" = d."knowledgeBaseId"
WHERE d."id" = $1 AND kb."projectId" = $2 AND d."knowledgeBaseId" = ANY($3::text[])`;

export interface KnowledgeDocumentPart {
  documentId: string;
  knowledgeBaseId: string;
  title: string;
  metadata: Record<string, string>;
  /** Length of the whole content, in characters. */
  length: number;
  /** At most `maxChars` characters of the content from `offset`. */
  content: string;
}

interface PartRow {
  id: string;
  knowledgeBaseId: string;
  title: string;
  metadata: Record<string, string> | null;
  length: number;
  content: string;
}

/**
 * A document of one of the given knowledge bases of the project, or null when it is in none of them (unknown, of
 * another base, of another project: the caller cannot tell which). Reads `maxChars` characters from `offset`.
 */
export async function readKnowledgeDocument(
  pool: Queryable,
  projectId: string,
  knowledgeBaseIds: readonly string[],
  documentId: string,
  offset: number,
  maxChars: number,
): Promise<KnowledgeDocumentPart | null> {
  if (knowledgeBaseIds.length === 0) return null;
  const { rows } = await pool.query<PartRow>(READ_SQL, [
    documentId,
    projectId,
    [...knowledgeBaseIds],
    offset,
    maxChars,
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    documentId: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    title: row.title,
    metadata: row.metadata ?? {},
    length: Number(row.length),
    content: row.content,
  };
}
