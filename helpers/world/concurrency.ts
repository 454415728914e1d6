/**
 * How much of the suite goes on at once against one target (docs/benchmarks.md "Concurrency").
 *
 * - `CORE_API_CONCURRENCY` (default 8, helpers/base/env-vars.ts): independent tests of one file in
 *   flight together (vitest `maxConcurrency` of the conformance project, for `describe.concurrent`
 *   blocks), and the size of fixture pools that serve them.
 * - Order-sensitive tests (merge sequences, the model-based test, webhook timing) are never marked
 *   concurrent; they keep running one after the other.
 */
import { Pool } from 'tarn';
import pLimit from 'p-limit';
import { currentScope, markQueued, runDetached } from '../record/current-test';
import { readEnv, type EnvSource } from '../base/env';
import { hasCapability } from '../target/target';

/**
 * The per-target concurrency: `CORE_API_CONCURRENCY` of `env` (default the process's environment),
 * an integer from 1 to 1000, default 8 (eight requests in flight per file suit a staging target, a
 * few hundred ms per answer, and loopback alike). vitest.config.ts reads the same variable.
 * @throws EnvError when the variable holds anything else.
 */
export function concurrency(env?: EnvSource): number {
  return readEnv('CORE_API_CONCURRENCY', env);
}

/**
 * How many fixtures a file's {@link fixturePool} may hold: `simulatorFactor` × {@link concurrency}
 * on a simulator (its fixtures are the file's own, made fresh; a file whose tests each borrow
 * several at once asks for more than one per test); on a live tenant `CORE_API_LIVE_POOL` (default 1), at
 * most {@link concurrency}: each is an assistant the lane keeps (made once, restored after every
 * run; docs/live-tenants.md), so more than one is the operator's choice.
 * @throws EnvError when either variable holds a value its kind refuses.
 */
export function fixturePoolSize(control: boolean, simulatorFactor = 1, env?: EnvSource): number {
  return control ? simulatorFactor * concurrency(env) : Math.min(concurrency(env), readEnv('CORE_API_LIVE_POOL', env));
}

/** A pool of interchangeable fixtures shared by concurrent tests (each test borrows one at a time). */
export interface FixturePool<T> {
  /**
   * Borrows a fixture for `fn` and gives it back when `fn` settles; waits while all are borrowed.
   * Answers what `fn` answers. The wait is queued time, not charged to the test's budget; a
   * borrower cut off while it held the fixture has it read back (the pool's `recover`) before the
   * next borrower gets it.
   */
  use<R>(fn: (fixture: T) => Promise<R>): Promise<R>;
  /** Stops the pool (fixtures are cleaned up by the world's ledger, not here). */
  close(): Promise<void>;
}

/**
 * A pool of at most `max` fixtures, created by `create` on demand (the first borrower creates the
 * first one), built on tarn. `recover`, when given, runs on no test's behalf (nothing recorded, no
 * cancelled signal) on a fixture whose borrower was judged while it held it (a test cut off
 * mid-change): it reads the fixture back and restores what the next borrower relies on. A
 * fixture whose recovery fails is destroyed, and a new one is made for the next borrower.
 * @throws whatever `create` throws, to the borrower that needed the fixture.
 */
export function fixturePool<T extends object>(create: (index: number) => Promise<T>, max: number, recover?: (fixture: T) => Promise<void>): FixturePool<T> {
  let made = 0;
  const broken = new WeakSet<T>();
  const pool = new Pool<T>({
    create: () => runDetached(() => create(made++)),
    destroy: () => undefined,
    validate: (fixture) => !broken.has(fixture),
    min: 0,
    max: Math.max(1, max),
    propagateCreateError: true,
    acquireTimeoutMillis: 600_000,
    idleTimeoutMillis: 3_600_000,
  });
  return {
    async use(fn) {
      const signal = currentScope()?.signal;
      const unqueue = markQueued('a shared fixture');
      const pending = pool.acquire();
      let fixture: T;
      try {
        fixture = await pending.promise;
      } finally {
        unqueue();
      }
      if (signal?.aborted) {
        // Judged while it waited: it must not act, and the fixture goes to the next borrower untouched.
        pool.release(fixture);
        throw signal.reason ?? new Error('the test was already judged');
      }
      try {
        return await fn(fixture);
      } finally {
        if (signal?.aborted && recover) {
          await runDetached(() => recover(fixture)).catch(() => broken.add(fixture));
        }
        pool.release(fixture);
      }
    },
    close: async () => {
      await pool.destroy();
    },
  };
}

/**
 * One limit on requests in flight for a whole file: `simulatorFactor` × {@link concurrency} on a
 * simulator, which exists to be hammered; {@link concurrency} on a live tenant.
 */
export function fileLimit(simulatorFactor: number): <R>(fn: () => Promise<R>) => Promise<R> {
  return sharedLimit(hasCapability('control') ? simulatorFactor * concurrency() : concurrency());
}

/**
 * A limit on work in flight shared by concurrent tests (p-limit): `run(fn)` waits for a slot,
 * which is queued time for the waiting test (not charged to its budget, helpers/record/current-test.ts).
 */
export function sharedLimit(n: number): <R>(fn: () => Promise<R>) => Promise<R> {
  const limit = pLimit(Math.max(1, n));
  return (fn) => {
    const unqueue = markQueued('a request slot shared by concurrent tests');
    return limit(() => {
      unqueue();
      return fn();
    });
  };
}
