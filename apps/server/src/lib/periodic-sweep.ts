import type { Logger } from "pino";
import type { Stoppable } from "./lifecycle.js";

/**
 * Runs `sweep` now and then every `everyMs` (housekeeping any number of processes may run: the sweeps are idempotent);
 * a failed sweep is logged as `<name> failed` and the next one runs as planned.
 */
export function startPeriodicSweep(
  name: string,
  everyMs: number,
  logger: Logger,
  sweep: () => Promise<unknown>,
): Stoppable {
  const run = () => sweep().catch((err) => logger.warn({ err }, `${name} failed`));
  const timer = setInterval(run, everyMs);
  timer.unref();
  void run();
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}
