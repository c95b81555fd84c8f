import type { AgentConfig } from "@agent-platform/contract";
import type { StoredEvent } from "../../sessions/index.js";

/**
 * Session logs the worker read recently. A log is append-only and its entries immutable, so a cached prefix stays
 * valid forever: a pass reads only what follows it. Bounded by the total number of entries kept (least recently used
 * sessions go first).
 */
export class LogCache {
  private readonly logs = new Map<string, StoredEvent[]>();
  private size = 0;

  constructor(private readonly maxEvents: number) {}

  /** A copy of the cached prefix (the caller appends to it), or []. */
  take(sessionId: string): StoredEvent[] {
    const log = this.logs.get(sessionId);
    if (!log) return [];
    this.logs.delete(sessionId);
    this.size -= log.length;
    return log;
  }

  /** The `seq` of the cached prefix's last entry (0 when nothing is cached). */
  lastSeq(sessionId: string): number {
    return this.logs.get(sessionId)?.at(-1)?.seq ?? 0;
  }

  /** The cached prefix itself, to read and not to change (it stays cached), or []. */
  peek(sessionId: string): readonly StoredEvent[] {
    return this.logs.get(sessionId) ?? [];
  }

  put(sessionId: string, log: StoredEvent[]): void {
    this.drop(sessionId);
    if (log.length > this.maxEvents) return;
    this.logs.set(sessionId, log);
    this.size += log.length;
    for (const [id, old] of this.logs) {
      if (this.size <= this.maxEvents) break;
      this.logs.delete(id);
      this.size -= old.length;
    }
  }

  drop(sessionId: string): void {
    const log = this.logs.get(sessionId);
    if (!log) return;
    this.logs.delete(sessionId);
    this.size -= log.length;
  }
}

/** Agent version configurations (immutable), by `<agentId>@<version>`, least recently used first out. */
export class AgentConfigCache {
  private readonly configs = new Map<string, AgentConfig>();

  constructor(private readonly maxEntries: number) {}

  get(agentId: string, version: number): AgentConfig | undefined {
    const key = `${agentId}@${version}`;
    const config = this.configs.get(key);
    if (config) {
      this.configs.delete(key);
      this.configs.set(key, config);
    }
    return config;
  }

  set(agentId: string, version: number, config: AgentConfig): void {
    const key = `${agentId}@${version}`;
    this.configs.delete(key);
    this.configs.set(key, config);
    if (this.configs.size > this.maxEntries) {
      const oldest = this.configs.keys().next().value;
      if (oldest !== undefined) this.configs.delete(oldest);
    }
  }
}
