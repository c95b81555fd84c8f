import { createHash, randomBytes } from "node:crypto";

export const API_KEY_PREFIX = "ap_";

export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(30).toString("base64url")}`;
}

/** Keys are 240 random bits, so a fast hash is enough; only the hash is stored. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
