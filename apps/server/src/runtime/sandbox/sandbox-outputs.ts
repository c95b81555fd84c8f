import type pg from "pg";
import { ARTIFACT_LIMITS, latestArtifactContents, writeArtifact } from "../../artifacts/index.js";
import type { TarEntry } from "../../workspaces/index.js";

const OUTPUTS_PREFIX = "outputs/";
const MAX_OUTPUT_ARTIFACTS = 100;

/**
 * The outputs of a turn's code: files of the saved workspace under /workspace/outputs become artifacts of the
 * session (new or changed ones only; at most 100, each within the artifact limits).
 */
export async function saveOutputs(
  pool: pg.Pool,
  session: { sessionId: string; projectId: string },
  files: TarEntry[],
): Promise<void> {
  const outputs = files
    .filter((f) => f.path.startsWith(OUTPUTS_PREFIX) && f.path.length > OUTPUTS_PREFIX.length)
    .filter((f) => f.size <= ARTIFACT_LIMITS.binaryBytes && f.path.length <= ARTIFACT_LIMITS.nameLength)
    .slice(0, MAX_OUTPUT_ARTIFACTS);
  if (outputs.length === 0) return;
  const latest = await latestArtifactContents(
    pool,
    session.sessionId,
    outputs.map((f) => f.path),
  );
  for (const file of outputs) {
    const content = file.content ?? Buffer.alloc(0);
    if (latest.get(file.path)?.equals(content)) continue;
    await writeArtifact(pool, {
      sessionId: session.sessionId,
      projectId: session.projectId,
      name: file.path,
      content: new Uint8Array(content),
      contentType: contentTypeOf(file.path),
    });
  }
}

const TYPES: Record<string, string> = {
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  pdf: "application/pdf",
  zip: "application/zip",
  py: "text/x-python",
  js: "text/javascript",
};

function contentTypeOf(path: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && TYPES[extension]) || "application/octet-stream";
}
