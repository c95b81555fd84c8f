import pino, { type Logger } from "pino";

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ["headers", "*.headers", "secrets", "*.secrets", "authorization"], censor: "[redacted]" },
  });
}
