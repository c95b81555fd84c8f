/** A part of the process that can be down while its database pool answers: null when ready, else what is wrong. */
export type ReadinessCheck = () => string | null;

/**
 * What `/readyz` asks besides the database: the process's background machinery (the notification listener, the job
 * runner, …) registers a check here, so that readiness stays false until each part works again after an outage.
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  /** Registers (or replaces) the check named `name`; returns a function that removes it. */
  add(name: string, check: ReadinessCheck): () => void {
    this.checks.set(name, check);
    return () => {
      if (this.checks.get(name) === check) this.checks.delete(name);
    };
  }

  /** Each registered part's state: `"ok"`, or what is wrong with it. */
  report(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, check] of this.checks) out[name] = check() ?? "ok";
    return out;
  }
}
