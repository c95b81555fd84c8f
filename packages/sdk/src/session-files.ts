import { type ClientOptions, legacyTransport } from "./client-options.js";
import { fillPath } from "./request-path.js";
import { send } from "./transport.js";

export interface WorkspaceFileRef {
  projectId: string;
  sessionId: string;
  /** Relative to /workspace (`outputs/report.csv`) or absolute under `/workspace/`. */
  path: string;
  signal?: AbortSignal;
}

/**
 * Downloads one file of a session's workspace as bytes, for code built on `createClient` (with `AgentPlatform`, use
 * `platform.sessionFiles.download`). A path under `/workspace/` is sent relative to it, slashes kept.
 */
export async function downloadWorkspaceFile(
  options: Pick<ClientOptions, "baseUrl" | "apiKey" | "fetch" | "headers">,
  file: WorkspaceFileRef,
): Promise<Uint8Array> {
  const path = fillPath("/v1/projects/:projectId/sessions/:id/files/*", {
    projectId: file.projectId,
    id: file.sessionId,
    path: file.path.replace(/^\/workspace\//, ""),
  });
  const { body } = await send(
    legacyTransport(options),
    { method: "GET", path, binary: true },
    file.signal ? { signal: file.signal } : {},
  );
  return body as Uint8Array;
}
