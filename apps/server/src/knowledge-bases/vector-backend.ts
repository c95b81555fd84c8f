import type { AppContext } from "../context.js";
import { onePerOwner } from "../lib/per-owner.js";
import { detectVectorBackend, type VectorBackend } from "./pgvector.js";

function backendMode(env: Record<string, string | undefined>): "auto" | "exact" {
  const value = env.KNOWLEDGE_VECTOR_BACKEND?.trim() || "auto";
  if (value !== "auto" && value !== "exact") {
    throw new Error(`KNOWLEDGE_VECTOR_BACKEND must be "auto" or "exact" (got ${value})`);
  }
  return value;
}

/**
 * The process's vector search backend, detected once (at start: the knowledge routes and job kinds ask for it when
 * they are built) and logged: pgvector with HNSW indexes when the server has the extension, else an exact scan.
 */
export const vectorBackendOf = onePerOwner((ctx: AppContext): Promise<VectorBackend> => {
  const detected = detectVectorBackend(ctx.db.pool, ctx.logger, backendMode(ctx.config.env)).then(
    (backend) => {
      if (backend.kind === "pgvector") {
        ctx.logger.info(
          { pgvector: backend.version, iterativeScan: backend.iterativeScan },
          "vector search: pgvector (HNSW)",
        );
      } else ctx.logger.info({ reason: backend.reason }, "vector search: exact scan");
      return backend;
    },
    (error: unknown): VectorBackend => {
      ctx.logger.warn({ err: error }, "vector search: pgvector detection failed, scanning exactly");
      return { kind: "exact", reason: "detection failed" };
    },
  );
  return detected;
});
