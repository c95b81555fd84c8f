import pino, { type DestinationStream, type Logger } from "pino";

/**
 * `destination`: where lines go (stdout by default; tests capture them to scan for secrets). `traceIds`: with telemetry
 * on, every line carries the active trace and span ids.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  traceIds?: () => Record<string, string | undefined>,
): Logger {
  const options = {
    level,
    ...(traceIds ? { mixin: traceIds } : {}),
    base: undefined,
    redact: { paths: ["headers", "*.headers", "secrets", "*.secrets", "authorization"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
