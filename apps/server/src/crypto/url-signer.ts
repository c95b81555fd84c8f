import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureCheck = "ok" | "invalid" | "expired";

/** HMAC-SHA256 signatures for links the platform serves without an API key (skill files, artifacts). */
export class UrlSigner {
  constructor(private readonly key: Buffer) {}

  sign(path: string, expiresAt: number): string {
    return createHmac("sha256", this.key).update(`${path}\n${expiresAt}`).digest("base64url");
  }

  /** Returns `path?expires=…&signature=…`. */
  signPath(path: string, ttlSeconds: number, now = Date.now()): { url: string; expiresAt: Date } {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return {
      url: `${path}?expires=${expires}&signature=${this.sign(path, expires)}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  verify(path: string, expires: unknown, signature: unknown, now = Date.now()): SignatureCheck {
    const exp = Number(expires);
    if (!Number.isInteger(exp) || typeof signature !== "string") return "invalid";
    const expected = Buffer.from(this.sign(path, exp));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
    return exp * 1000 < now ? "expired" : "ok";
  }
}
