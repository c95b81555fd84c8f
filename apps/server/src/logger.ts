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
  // Stdout is written asynchronously: lines logged while a write is in flight leave together in the next one (one
  // system call per request line cost ~10 % of a busy server's CPU); pino flushes what is pending when the process exits.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
