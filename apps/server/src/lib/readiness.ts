/** A part of the process that can be down while its database pool answers: null when ready, else what is wrong. */
export type ReadinessCheck = () => string | null;
/** Information about a part that does not decide readiness (e.g. whether browsers can be confined here). */
export type ReadinessDetail = () => string | Promise<string>;

/**
 * What `/readyz` asks besides the database: the process's background machinery (the notification listener, the job
 * runner, …) registers a check here, so that readiness stays false until each part works again after an outage.
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private readonly infos = new Map<string, ReadinessDetail>();

  /** Registers (or replaces) the check named `name`; returns a function that removes it. */
  add(name: string, check: ReadinessCheck): () => void {
    this.checks.set(name, check);
    return () => {
      if (this.checks.get(name) === check) this.checks.delete(name);
    };
  }

  /** Registers information shown by `/readyz` under `details`, which never makes the process unready. */
  addDetail(name: string, detail: ReadinessDetail): void {
    this.infos.set(name, detail);
  }

  /** The registered details, each read now (one that fails to read says so). */
  async details(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [name, detail] of this.infos) {
      out[name] = await Promise.resolve()
        .then(detail)
        .catch((error: unknown) => `unknown (${error instanceof Error ? error.message : String(error)})`);
    }
    return out;
  }

  /** Each registered part's state: `"ok"`, or what is wrong with it. */
  report(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, check] of this.checks) out[name] = check() ?? "ok";
    return out;
  }
}
