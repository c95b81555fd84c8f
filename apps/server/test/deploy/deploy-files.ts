import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Shared by the static checks of compose.yaml and deploy/kubernetes. */

export function repoFile(path: string): string {
  return fileURLToPath(new URL(`../../../../${path}`, import.meta.url));
}

export function dockerfile(): string {
  return readFileSync(repoFile("Dockerfile"), "utf8");
}

/** The command compose's migrate service and the Kubernetes Job run: packages/db's CLI, as deployed in the image. */
export const IMAGE_MIGRATE_COMMAND = ["node", "/app/node_modules/@agent-platform/db/dist/cli/migrate.js"];

/** The unprivileged user id the image runs as (the Dockerfile's APP_UID). */
export function imageUid(): number {
  const match = /^ARG APP_UID=(\d+)$/m.exec(dockerfile());
  if (!match) throw new Error("the Dockerfile declares no ARG APP_UID");
  return Number(match[1]);
}

/** `NAME=value` lines of an env file (comments and blank lines skipped), as compose and kustomize read them. */
export function envFileEntries(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) entries.set(match[1]!, match[2]!);
  }
  return entries;
}

/** Every upper-case name docs/operating.md writes in backticks: its variable tables and the text around them. */
export function documentedVariables(): Set<string> {
  const text = readFileSync(repoFile("docs/operating.md"), "utf8");
  return new Set([...text.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{4,})`/g)].map((m) => m[1]!));
}

/** "30s", "1m30s", "30" → seconds. */
export function seconds(duration: string): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s?)?$/.exec(duration.trim());
  if (!match) throw new Error(`not a duration: ${duration}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}
