import type { Artifact, ArtifactList, ArtifactVersion } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { signArtifactLink } from "./artifact-links.js";

interface VersionRow {
  id: string;
  name: string;
  version: number;
  contentType: string;
  bytes: number;
  createdAt: Date;
}

/** The session's artifacts grouped by name (sorted by name), each with every version newest first and signed links. */
export async function listSessionArtifacts(
  ctx: AppContext,
  projectId: string,
  sessionId: string,
): Promise<ArtifactList> {
  const session = await ctx.db.prisma.session.findFirst({ where: { id: sessionId, projectId }, select: { id: true } });
  if (!session) throw new AppError("session.not_found", `Session ${sessionId} was not found`);
  const { rows } = await ctx.db.pool.query<VersionRow>(
    `SELECT "id", "name", "version", "contentType", "bytes", "createdAt"
       FROM artifacts WHERE "sessionId" = $1 AND "projectId" = $2
      ORDER BY "name" COLLATE "C" ASC, "version" DESC`,
    [sessionId, projectId],
  );
  const now = Date.now();
  const groups = new Map<string, ArtifactVersion[]>();
  for (const row of rows) {
    const link = signArtifactLink(ctx, row.id, undefined, now);
    const version: ArtifactVersion = {
      id: row.id,
      version: row.version,
      contentType: row.contentType,
      bytes: row.bytes,
      createdAt: row.createdAt.toISOString(),
      url: link.url,
      expiresAt: link.expiresAt.toISOString(),
    };
    const group = groups.get(row.name);
    if (group) group.push(version);
    else groups.set(row.name, [version]);
  }
  const data: Artifact[] = [...groups].map(([name, versions]) => {
    const latest = versions[0]!;
    return {
      name,
      latestVersion: latest.version,
      contentType: latest.contentType,
      bytes: latest.bytes,
      updatedAt: latest.createdAt,
      url: latest.url,
      expiresAt: latest.expiresAt,
      versions,
    };
  });
  return { data };
}
