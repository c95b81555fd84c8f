import pino, { type DestinationStream, type Logger } from "pino";

/** `destination`: where lines go (stdout by default; tests capture them to scan for secrets). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: ["headers", "*.headers", "secrets", "*.secrets", "authorization"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
