/**
 * How much of the suite goes on at once against one target (docs/benchmarks.md "Concurrency").
 *
 * - `CORE_API_CONCURRENCY` (default {@link DEFAULT_CONCURRENCY}): independent tests of one file in
 *   flight together (vitest `maxConcurrency` of the conformance project, for `describe.concurrent`
 *   blocks), and the size of fixture pools that serve them.
 * - Order-sensitive tests (merge sequences, the model-based test, webhook timing) are never marked
 *   concurrent; they keep running one after the other.
 */
import { Pool } from 'tarn';

/** Environment variable naming the per-target concurrency. */
export const CONCURRENCY_VAR = 'CORE_API_CONCURRENCY';
/** Default concurrency: eight requests in flight per file suit a staging target (a few hundred ms per answer) and loopback alike. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * The per-target concurrency: `CORE_API_CONCURRENCY` when it is a positive integer, else
 * {@link DEFAULT_CONCURRENCY}.
 */
export function concurrency(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env[CONCURRENCY_VAR]);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_CONCURRENCY;
}

/** A pool of interchangeable fixtures shared by concurrent tests (each test borrows one at a time). */
export interface FixturePool<T> {
  /** Borrows a fixture for `fn` and gives it back when `fn` settles; waits while all are borrowed. Answers what `fn` answers. */
  use<R>(fn: (fixture: T) => Promise<R>): Promise<R>;
  /** Stops the pool (fixtures are cleaned up by the world's ledger, not here). */
  close(): Promise<void>;
}

/**
 * A pool of at most `max` fixtures, created by `create` on demand (the first borrower creates the
 * first one), built on tarn.
 * @throws whatever `create` throws, to the borrower that needed the fixture.
 */
export function fixturePool<T extends object>(create: (index: number) => Promise<T>, max: number): FixturePool<T> {
  let made = 0;
  const pool = new Pool<T>({
    create: () => create(made++),
    destroy: () => undefined,
    min: 0,
    max: Math.max(1, max),
    propagateCreateError: true,
    acquireTimeoutMillis: 60_000,
    idleTimeoutMillis: 3_600_000,
  });
  return {
    async use(fn) {
      const fixture = await pool.acquire().promise;
      try {
        return await fn(fixture);
      } finally {
        pool.release(fixture);
      }
    },
    close: async () => {
      await pool.destroy();
    },
  };
}
