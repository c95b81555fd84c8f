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

// The passage, its document, and `around` characters on each side of it, in one round trip.
const PASSAGE_SQL = `
SELECT c."id", c."documentId", c."position", c."headingPath", c."startOffset", c."endOffset", d."knowledgeBaseId",
       d."title", char_length(d."content") AS "length",
       GREATEST(c."startOffset" - $4::int, 0) AS "from",
       substr(d."content", GREATEST(c."startOffset" - $4::int, 0) + 1,
              c."endOffset" - GREATEST(c."startOffset" - $4::int, 0) + $4::int) AS "text"
FROM knowledge_chunks c
JOIN knowledge_documents d ON d."id" = c."documentId"
JOIN knowledge_bases kb ON kb."id" = d."knowledgeBaseId"
WHERE c."id" = $1 AND kb."projectId" = $2 AND d."knowledgeBaseId" = ANY($3::text[])`;

export interface KnowledgePassage {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  title: string;
  headingPath: string[];
  position: number;
  /** The passage's own range in the document. */
  startOffset: number;
  endOffset: number;
  /** The range read: the passage and up to `around` characters each side. */
  from: number;
  to: number;
  /** Length of the whole document, in characters. */
  length: number;
  text: string;
}

/**
 * A passage of one of the given knowledge bases of the project with `around` characters of its document on each
 * side, or null when it is in none of them (unknown, of another base or project: the caller cannot tell which).
 */
export async function readKnowledgePassage(
  pool: Queryable,
  projectId: string,
  knowledgeBaseIds: readonly string[],
  chunkId: string,
  around: number,
): Promise<KnowledgePassage | null> {
  if (knowledgeBaseIds.length === 0) return null;
  const { rows } = await pool.query<{
    id: string;
    documentId: string;
    position: number;
    headingPath: string[] | null;
    startOffset: number;
    endOffset: number;
    knowledgeBaseId: string;
    title: string;
    length: number;
    from: number;
    text: string;
  }>(PASSAGE_SQL, [chunkId, projectId, [...knowledgeBaseIds], around]);
  const row = rows[0];
  if (!row) return null;
  const from = Number(row.from);
  return {
    chunkId: row.id,
    documentId: row.documentId,
    knowledgeBaseId: row.knowledgeBaseId,
    title: row.title,
    headingPath: row.headingPath ?? [],
    position: row.position,
    startOffset: row.startOffset,
    endOffset: row.endOffset,
    from,
    to: from + [...row.text].length,
    length: Number(row.length),
    text: row.text,
  };
}
