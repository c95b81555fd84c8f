import { apiErrorOf } from "./errors.js";
import type { ClientOptions } from "./legacy-client.js";
import { fillPath } from "./request-path.js";

export interface WorkspaceFileRef {
  projectId: string;
  sessionId: string;
  /** Relative to /workspace (`outputs/report.csv`) or absolute under `/workspace/`. */
  path: string;
  signal?: AbortSignal;
}

/**
 * Downloads one file of a session's workspace as bytes (`client.sessionFiles.download` returns text, which suits only
 * text files). Uses fetch only: works in Node.js, browsers and edge runtimes.
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
  const response = await (options.fetch ?? fetch)(options.baseUrl.replace(/\/+$/, "") + path, {
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(file.signal ? { signal: file.signal } : {}),
  });
  if (!response.ok) throw await apiErrorOf(response);
  return new Uint8Array(await response.arrayBuffer());
}
