import type { RequestHandler } from "express";
import { hashApiKey } from "../auth/api-key-hash.js";
import type { AppContext } from "../context.js";
import { AppError } from "./app-error.js";
import type { AuthContext } from "./auth-context.js";

interface KeyRow {
  id: string;
  name: string;
  role: AuthContext["role"];
  workspaceId: string;
  projectId: string;
  revokedAt: Date | null;
}

/** Resolves `Authorization: Bearer <key>` to an AuthContext: from the cache, else in one indexed query. */
export function authenticate(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      next(
        new AppError(
          "auth.unauthorized",
          header ? "Authorization must be `Bearer <API_KEY>`" : "Missing Authorization header (`Bearer <API_KEY>`)",
        ),
      );
      return;
    }
    const hash = hashApiKey(match[1]!);
    const cached = ctx.apiKeys.get(hash);
    if (cached) {
      req.auth = cached;
      next();
      return;
    }
    ctx.db.pool
      .query<KeyRow>(
        'SELECT "id", "name", "role", "workspaceId", "projectId", "revokedAt" FROM api_keys WHERE "hash" = $1',
        [hash],
      )
      .then(({ rows }) => {
        const row = rows[0];
        if (!row) throw new AppError("auth.unauthorized", "Invalid API key");
        if (row.revokedAt) throw new AppError("auth.unauthorized", "This API key has been revoked");
        req.auth = {
          keyId: row.id,
          keyName: row.name,
          role: row.role,
          workspaceId: row.workspaceId,
          projectId: row.projectId,
        };
        ctx.apiKeys.set(hash, req.auth);
        next();
      })
      .catch(next);
  };
}
