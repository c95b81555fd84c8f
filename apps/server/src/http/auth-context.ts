import type { AuthContext } from "../auth/caller.js";
import { AppError } from "./app-error.js";

export type { AuthContext } from "../auth/caller.js";

declare global {
  namespace Express {
    interface Request {
      auth?: AuthContext;
      requestId: string;
    }
  }
}

export function authOf(req: { auth?: AuthContext }): AuthContext {
  if (!req.auth) throw new AppError("auth.unauthorized", "Missing API key");
  return req.auth;
}

/**
 * Project-scoped routes: a key sees only its own project. Another project's routes answer 404 `project.not_found`
 * (areas whose routes name a resource answer with that resource's own not-found code instead), so nothing leaks.
 */
export function projectScope(req: { auth?: AuthContext }, projectId: string): AuthContext {
  const auth = authOf(req);
  if (auth.projectId !== projectId) throw new AppError("project.not_found", `Project ${projectId} was not found`);
  return auth;
}

export function requireAdmin(req: { auth?: AuthContext }): AuthContext {
  const auth = authOf(req);
  if (auth.role !== "admin") {
    throw new AppError("auth.forbidden", "This operation needs an admin API key (workspace administration)");
  }
  return auth;
}
