import { resolve } from "node:path";
import type { DestinationStream } from "pino";
import { modelCatalogueOf } from "./models/catalogue.js";

export type Role = "all" | "api" | "worker";

export interface Config {
  databaseUrl?: string;
  dataDir: string;
  port: number;
  host: string;
  role: Role;
  bootstrapApiKey?: string;
  secretsKey?: string;
  logLevel: string;
  /** Public base URL used in signed links; defaults to http://HOST:PORT. */
  publicUrl?: string;
  env: Record<string, string | undefined>;
  /** Where log lines go instead of stdout (set by code, never by the environment: tests capture logs). */
  logDestination?: DestinationStream;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const role = (env.ROLE ?? "all") as Role;
  if (!["all", "api", "worker"].includes(role)) throw new Error(`ROLE must be all, api or worker (got ${role})`);
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port number: ${env.PORT}`);
  // A malformed MODEL_CATALOGUE / MODEL_CATALOGUE_FILE stops the start, not a session later.
  modelCatalogueOf(env);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    // pnpm runs scripts inside the package folder; relative paths mean the folder the command was typed in.
    dataDir: resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? ".data"),
    port,
    host: env.HOST ?? "127.0.0.1",
    role,
    bootstrapApiKey: env.BOOTSTRAP_API_KEY || undefined,
    secretsKey: env.SECRETS_KEY || undefined,
    logLevel: env.LOG_LEVEL ?? "info",
    publicUrl: env.PUBLIC_URL || undefined,
    env,
  };
}
