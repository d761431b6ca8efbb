/**
 * A map that keeps the `capacity` keys written last and forgets the one written longest ago, in constant
 * time. (Deleting a Map's oldest key through `map.keys().next()` is not constant: V8 leaves a hole for
 * every deleted entry until the table is rebuilt and the iterator steps over each hole before it, 2.4 us
 * per insert at 8,192 entries against 0.1 us for this queue; the worker's recent-events cache spent 5% of
 * its thread there under settlement load: docs/decisions.md.)
 *
 * Writing a key again makes it the newest. `order` is a queue of (key, stamp) in write order; a key
 * written again leaves its older item behind, which eviction and compaction skip by its stamp.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; stamp: number }>();
  private order: { key: K; stamp: number }[] = [];
  private head = 0;
  private stamp = 0;

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`a BoundedMap holds at least one entry (capacity ${capacity})`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    const stamp = ++this.stamp;
    this.entries.set(key, { value, stamp });
    this.order.push({ key, stamp });
    if (this.entries.size > this.capacity) this.forgetOldest();
    // The queue's consumed front, and stale items (keys written again) piling up while nothing is evicted,
    // are dropped once either is as long as the map: a copy of O(capacity) every O(capacity) writes.
    if (this.head > this.capacity || this.order.length - this.head > 2 * this.capacity) this.compact();
    return this;
  }

  clear(): void {
    this.entries.clear();
    this.order = [];
    this.head = 0;
  }

  private forgetOldest(): void {
    for (;;) {
      const { key, stamp } = this.order[this.head++]!;
      if (this.entries.get(key)?.stamp === stamp) {
        this.entries.delete(key);
        return;
      }
    }
  }

  private compact(): void {
    this.order = this.order.slice(this.head).filter(({ key, stamp }) => this.entries.get(key)?.stamp === stamp);
    this.head = 0;
  }
}
