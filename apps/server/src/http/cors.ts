import cors from "cors";
import type { RequestHandler } from "express";

export const CORS_VARIABLE = "CORS_ORIGINS";

/** Request headers a browser client may send (the SDK's), and response headers it may read. */
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "Accept"];
const EXPOSED_HEADERS = [
  "X-Request-Id",
  "Idempotent-Replayed",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Allow",
];

/** Parses `CORS_ORIGINS`: comma-separated origins (`https://app.example.com`) or `*`. Throws on an invalid entry. */
export function parseCorsOrigins(text: string | undefined): string[] | "*" {
  const entries = (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.includes("*")) return "*";
  return entries.map((entry) => {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if ((url.protocol === "http:" || url.protocol === "https:") && entry.replace(/\/$/, "") === url.origin) {
        origin = url.origin;
      }
    } catch {
      // reported below
    }
    if (!origin) {
      throw new Error(
        `${CORS_VARIABLE}: "${entry}" is not an origin (scheme://host[:port], e.g. https://app.example.com) or *`,
      );
    }
    return origin;
  });
}

/**
 * CORS for browser clients of the API, when `CORS_ORIGINS` names them; `null` (no CORS headers at all) otherwise.
 * Keys travel in the Authorization header, never in cookies, so credentials are not allowed.
 */
export function corsFor(text: string | undefined): RequestHandler | null {
  const origins = parseCorsOrigins(text);
  if (origins !== "*" && origins.length === 0) return null;
  return cors({
    origin: origins,
    credentials: false,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
