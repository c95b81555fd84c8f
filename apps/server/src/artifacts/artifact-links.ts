import type { AppContext } from "../context.js";
import { PUBLIC_PREFIX } from "../http/public-routes.js";

/** Lifetime of the signed links returned by the artifacts list. */
export const ARTIFACT_LINK_TTL_SECONDS = 3600;

/** Path (under the public prefix) of one artifact version's content; this exact path is what gets signed. */
export function artifactFilePath(artifactId: string): string {
  return `${PUBLIC_PREFIX}/artifacts/${encodeURIComponent(artifactId)}`;
}

/** Absolute signed link (on the platform's public URL) to one artifact version's content. */
export function signArtifactLink(
  ctx: AppContext,
  artifactId: string,
  ttlSeconds = ARTIFACT_LINK_TTL_SECONDS,
  now = Date.now(),
): { url: string; expiresAt: Date } {
  const base = (ctx.config.publicUrl ?? `http://${ctx.config.host}:${ctx.config.port}`).replace(/\/+$/, "");
  const signed = ctx.signer.signPath(artifactFilePath(artifactId), ttlSeconds, now);
  return { url: `${base}${signed.url}`, expiresAt: signed.expiresAt };
}
