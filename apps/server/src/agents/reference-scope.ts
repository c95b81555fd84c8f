import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import type { ReferenceScope } from "./resolve-references.js";

export function referenceScope(auth: AuthContext, agentId?: string): ReferenceScope {
  return { projectId: auth.projectId, workspaceId: auth.workspaceId, ...(agentId ? { agentId } : {}) };
}

/**
 * Duplicate and restore re-run the write validation on a stored configuration: a reference that no longer holds is
 * reported under the operation's own code, with the original error as `details.cause`. Other failures (404s,
 * infrastructure) propagate unchanged.
 */
export async function asInapplicable<T>(
  code: "agent.duplicate_invalid" | "agent.restore_invalid",
  describe: (cause: string) => string,
  work: Promise<T>,
): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 422) throw error;
    throw new AppError(code, describe(error.message), {
      cause: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    });
  }
}
