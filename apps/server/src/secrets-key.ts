import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.js";

/** SECRETS_KEY, or (embedded database only) a key generated once into DATA_DIR/secrets.key. */
export function resolveSecretsKey(config: Config): string {
  if (config.secretsKey) return config.secretsKey;
  if (config.databaseUrl) {
    throw new Error("SECRETS_KEY is required with DATABASE_URL (32 random bytes, base64: `openssl rand -base64 32`)");
  }
  const file = join(config.dataDir, "secrets.key");
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}
