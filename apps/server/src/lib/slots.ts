/** A counted semaphore: at most `size` holders at once; later takers wait in order, or leave when their signal aborts. */
export class Slots {
  private readonly waiting: Array<() => void> = [];
  private held = 0;

  constructor(private readonly size: number) {}

  take(signal?: AbortSignal): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.held++;
        resolve();
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  release(): void {
    this.held--;
    this.waiting.shift()?.();
  }
}
