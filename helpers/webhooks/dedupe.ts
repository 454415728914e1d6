/**
 * Delivery-id deduplication for integrators (§6 Model B rule 3: delivery is at-least-once, every
 * retry reuses the same delivery id, receivers dedupe on it). Copy it, or back it with your database:
 * the in-memory map below only illustrates the contract (first sighting processes, later ones are
 * acknowledged without processing again).
 */

/** What {@link Deduper.claim} decided for a delivery id. */
export type DedupeDecision = 'process' | 'duplicate';

/**
 * Remembers delivery ids for a bounded time and tells whether a delivery is new.
 * In production use a shared store with an atomic "insert if absent" (a unique key on the delivery
 * id, or Redis `SET key 1 NX EX <s>`), so that two workers receiving the same retry do not both
 * process it.
 */
export class Deduper {
  private readonly seen = new Map<string, number>();

  /**
   * @param ttlMs how long an id is remembered, in ms (default 24 h). Keep it longer than the
   *   sender's whole retry schedule; §6 gives no schedule beyond "up to 5 retries with exponential
   *   backoff", so be generous.
   * @param now clock in ms (injectable for tests)
   */
  constructor(
    private readonly ttlMs = 24 * 60 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Claims a delivery id: `process` the first time it is seen within the TTL, `duplicate` after.
   * Claim only AFTER the signature verified (otherwise a forged request could burn a real id), and
   * answer 2xx to a duplicate so the sender stops retrying.
   * @throws TypeError when `deliveryId` is empty.
   */
  claim(deliveryId: string): DedupeDecision {
    if (!deliveryId) throw new TypeError('delivery id is empty');
    const t = this.now();
    for (const [id, at] of this.seen) {
      if (t - at <= this.ttlMs) break; // insertion order: the rest are newer
      this.seen.delete(id);
    }
    if (this.seen.has(deliveryId)) return 'duplicate';
    this.seen.set(deliveryId, t);
    return 'process';
  }

  /** Forgets an id, e.g. when processing failed and the next retry should process it again. */
  release(deliveryId: string): void {
    this.seen.delete(deliveryId);
  }

  /** Number of ids currently remembered. */
  get size(): number {
    return this.seen.size;
  }
}
