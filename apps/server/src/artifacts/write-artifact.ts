import type pg from "pg";
import { newId } from "../ids.js";

export const ARTIFACT_LIMITS = {
  nameLength: 200,
  contentBytes: 1024 * 1024,
  /** Binary versions written by the platform's own tools (screenshots, browser recordings). */
  binaryBytes: 16 * 1024 * 1024,
  contentTypeLength: 255,
  /** Versions of all names together, per session. */
  versionsPerSession: 1000,
} as const;

export interface WriteArtifactInput {
  sessionId: string;
  projectId: string;
  name: string;
  /** Text (stored as UTF-8) or binary content. */
  content: string | Uint8Array;
  contentType: string;
}

export interface WrittenArtifact {
  id: string;
  name: string;
  version: number;
  bytes: number;
  contentType: string;
  createdAt: Date;
}

export class ArtifactLimitError extends Error {}

const UNIQUE_VIOLATION = "23505";
const MAX_ATTEMPTS = 8;

/**
 * Appends the next version of `name` in the session: version = previous + 1, computed in the INSERT itself. Two writers
 * racing for the same number collide on the unique (sessionId, name, version) key; the loser retries with a fresh
 * maximum.
 */
export async function writeArtifact(pool: pg.Pool, input: WriteArtifactInput): Promise<WrittenArtifact> {
  const binary = typeof input.content === "string" ? null : Buffer.from(input.content);
  const bytes = binary ? binary.byteLength : Buffer.byteLength(input.content as string, "utf8");
  const limit = binary ? ARTIFACT_LIMITS.binaryBytes : ARTIFACT_LIMITS.contentBytes;
  if (bytes > limit) throw new ArtifactLimitError(`An artifact version holds at most ${limit} bytes (got ${bytes})`);
  const { rows: counted } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM artifacts WHERE "sessionId" = $1',
    [input.sessionId],
  );
  if ((counted[0]?.n ?? 0) >= ARTIFACT_LIMITS.versionsPerSession) {
    throw new ArtifactLimitError(
      `This session already holds ${ARTIFACT_LIMITS.versionsPerSession} artifact versions, the most it may keep`,
    );
  }
  for (let attempt = 1; ; attempt++) {
    const id = newId("artifact");
    try {
      const { rows } = await pool.query<{ version: number; createdAt: Date }>(
        `INSERT INTO artifacts
           ("id", "sessionId", "projectId", "name", "version", "content", "data", "contentType", "bytes")
         SELECT $1, $2, $3, $4, COALESCE(MAX("version"), 0) + 1, $5, $6, $7, $8
           FROM artifacts WHERE "sessionId" = $2 AND "name" = $4
         RETURNING "version", "createdAt"`,
        [
          id,
          input.sessionId,
          input.projectId,
          input.name,
          binary ? "" : input.content,
          binary,
          input.contentType,
          bytes,
        ],
      );
      const row = rows[0]!;
      return {
        id,
        name: input.name,
        version: row.version,
        bytes,
        contentType: input.contentType,
        createdAt: row.createdAt,
      };
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
