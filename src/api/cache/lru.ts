/**
 * A least-recently-used map bounded by entry count and by total bytes (the caller says how
 * many bytes each value weighs, and may correct it later with `resize`). Map keeps insertion
 * order, so the first key is always the least recently used one.
 */
export class Lru<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {
    if (!(maxEntries >= 1) || !(maxBytes >= 1)) throw new RangeError('An LRU needs room for at least one entry and one byte.');
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }

  /** The value, marked as most recently used. */
  get(key: string): V | undefined {
    const slot = this.map.get(key);
    if (!slot) return undefined;
    this.map.delete(key);
    this.map.set(key, slot);
    return slot.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Stores the value as most recently used; false (and nothing stored) when it alone exceeds maxBytes. */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.maxBytes) return false;
    this.map.set(key, { value, bytes });
    this.total += bytes;
    this.evict();
    return true;
  }

  /** Corrects an entry's weight (e.g. once its compressed twins exist), evicting older entries to stay within bounds. */
  resize(key: string, bytes: number): void {
    const slot = this.map.get(key);
    if (!slot) return;
    if (bytes > this.maxBytes) {
      this.delete(key);
      return;
    }
    this.total += bytes - slot.bytes;
    slot.bytes = bytes;
    this.evict(key);
  }

  delete(key: string): boolean {
    const slot = this.map.get(key);
    if (!slot) return false;
    this.map.delete(key);
    this.total -= slot.bytes;
    return true;
  }

  /** Drops every entry the predicate picks. */
  deleteWhere(pick: (key: string, value: V) => boolean): number {
    let n = 0;
    for (const [key, slot] of this.map) if (pick(key, slot.value) && this.delete(key)) n++;
    return n;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  /** Oldest first, never `keep` (the entry being resized stays unless it is the only one left). */
  private evict(keep?: string): void {
    for (const key of this.map.keys()) {
      if (this.map.size <= this.maxEntries && this.total <= this.maxBytes) return;
      if (key === keep) continue;
      this.delete(key);
    }
  }
}
