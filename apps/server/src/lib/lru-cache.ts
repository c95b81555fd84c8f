/**
 * A least-recently-used cache bounded by entry count and by total weight (for example bytes). Meant for immutable values:
 * there is no expiry. A value heavier than the whole budget is not cached.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly options: { maxEntries: number; maxWeight: number; weigh?: (value: V) => number }) {}

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** `weight` when the caller already knows it (for example the length of text it has just written). */
  set(key: K, value: V, weight = this.options.weigh?.(value) ?? 1): void {
    this.delete(key);
    if (weight > this.options.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    while (this.entries.size > this.options.maxEntries || this.weight > this.options.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}
