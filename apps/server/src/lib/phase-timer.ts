/** Durations of the consecutive phases of something (a process's start), in whole milliseconds. */
export function phaseTimer() {
  const started = performance.now();
  let last = started;
  const phases: Record<string, number> = {};
  return {
    /** Ends the current phase under `name`. */
    lap(name: string): void {
      const now = performance.now();
      phases[name] = Math.round(now - last);
      last = now;
    },
    phases,
    totalMs: () => Math.round(performance.now() - started),
  };
}
