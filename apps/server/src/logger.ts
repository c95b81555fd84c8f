import pino, { type DestinationStream, type Logger } from "pino";

const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 250;

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
  // Stdout is written asynchronously and in batches: lines wait until 4 KiB are pending or a quarter of a second has
  // passed (a write per request line cost ~10 % of a busy server's CPU when synchronous, and ~4 % of a lone client's
  // turn when asynchronous, each waking a thread of libuv's pool); pino flushes what is pending when the process exits.
  return pino(
    options,
    destination ?? pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
}
