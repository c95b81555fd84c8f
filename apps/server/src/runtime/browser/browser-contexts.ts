import type { Logger } from "pino";
import { Slots } from "../../lib/slots.js";
import type { BrowserProvider, BrowserProviderName, OpenContextOptions, OpenedContext } from "./browser-provider.js";

/** What a session's context does when it closes (its recording becomes an artifact). */
export type OnContextClosed = (recording: Uint8Array | null) => Promise<void>;

interface Entry {
  opened: Promise<OpenedContext>;
  provider: BrowserProviderName;
  onClosed: OnContextClosed;
  /** Calls of the session run one after the other (they share one page). */
  queue: Promise<unknown>;
  timer: NodeJS.Timeout | undefined;
}

export interface BrowserContextsOptions {
  providers: Record<BrowserProviderName, BrowserProvider>;
  maxContexts: number;
  idleTimeoutMs: number;
  logger: Logger;
}

export interface OpenRequest extends OpenContextOptions {
  provider: BrowserProviderName;
  onClosed: OnContextClosed;
}

/**
 * The browser contexts of one process: one per session, reused across the calls of a turn, closed when the turn ends
 * or after an idle timeout; at most `maxContexts` open at once, later sessions wait for a slot (in order).
 */
export class BrowserContexts {
  private readonly entries = new Map<string, Entry>();
  private readonly slots: Slots;
  private stopped = false;

  constructor(private readonly options: BrowserContextsOptions) {
    this.slots = new Slots(options.maxContexts);
  }

  /** Sessions with an open (or opening) context, for tests and metrics. */
  sessions(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Runs `work` on the session's context, opening it first when there is none (waiting for a slot). Calls of one
   * session are serialised. The idle timer restarts after each call.
   */
  async use<T>(
    sessionId: string,
    request: () => OpenRequest,
    signal: AbortSignal,
    work: (opened: OpenedContext) => Promise<T>,
  ): Promise<T> {
    let entry = this.entries.get(sessionId);
    if (!entry) {
      if (this.stopped) throw new Error("The browser is shutting down");
      const req = request();
      entry = {
        opened: this.openContext(req, signal),
        provider: req.provider,
        onClosed: req.onClosed,
        queue: Promise.resolve(),
        timer: undefined,
      };
      this.entries.set(sessionId, entry);
      const current = entry;
      entry.opened.catch(() => {
        if (this.entries.get(sessionId) === current) this.entries.delete(sessionId);
      });
    }
    const current = entry;
    clearTimeout(current.timer);
    const run = current.queue.then(async () => work(await current.opened));
    current.queue = run.catch(() => {});
    try {
      return await run;
    } finally {
      if (this.entries.get(sessionId) === current) {
        clearTimeout(current.timer);
        current.timer = setTimeout(() => void this.close(sessionId), this.options.idleTimeoutMs);
        current.timer.unref();
      }
    }
  }

  /** Closes the session's context (its recording is handed to `onClosed`); nothing when it has none. */
  async close(sessionId: string): Promise<void> {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    clearTimeout(entry.timer);
    // A call still running (a navigation an interrupt abandoned) is not waited for: the context closes under it, so
    // the browser (and a hosted provider's remote session) is released at once.
    let opened: OpenedContext;
    try {
      opened = await entry.opened;
    } catch {
      return;
    }
    try {
      const recording = await opened.close();
      await entry.onClosed(recording);
    } catch (error) {
      this.options.logger.error({ err: error, sessionId }, "closing a browser context failed");
    } finally {
      this.releaseSlot();
    }
  }

  /** Closes every context (recordings are still saved), then the browsers. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.entries.keys()].map((id) => this.close(id)));
    await Promise.all(Object.values(this.options.providers).map((p) => p.close().catch(() => {})));
  }

  private async openContext(request: OpenRequest, signal: AbortSignal): Promise<OpenedContext> {
    await this.takeSlot(signal);
    try {
      return await this.options.providers[request.provider].open(request);
    } catch (error) {
      this.releaseSlot();
      throw error;
    }
  }

  private takeSlot(signal: AbortSignal): Promise<void> {
    return this.slots.take(signal);
  }

  private releaseSlot(): void {
    this.slots.release();
  }
}
