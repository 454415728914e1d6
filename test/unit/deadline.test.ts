/**
 * helpers/base/deadline.ts and the queueing rules of helpers/world/concurrency.ts: a test's budget is charged
 * only while it is not queued, the numbers derive from the request deadline, a fixture pool's
 * wait is queued time, and a fixture whose borrower was cut off is read back before the next
 * borrower gets it.
 */
import { describe, expect, it } from 'vitest';
import {
  Budget,
  requestTimeoutMs,
  testBudgetMs,
  testWallMs,
  vitestTimeoutMs,
  BUDGET_REQUESTS,
  WALL_FACTOR,
  VITEST_GRACE_MS,
} from '../../helpers/base/deadline';
import { ENV_VARS } from '../../helpers/base/env';
import { fixturePool } from '../../helpers/world/concurrency';
import { runAsTest, markInflight, markQueued, currentScope } from '../../helpers/record/current-test';
import { waitingWords } from '../../helpers/checks/clause';

describe('the numbers derive from the request deadline', () => {
  it('reads CORE_API_REQUEST_TIMEOUT_MS, else the default; refuses what is not a number above 0', () => {
    expect(requestTimeoutMs({})).toBe(ENV_VARS.CORE_API_REQUEST_TIMEOUT_MS.fallback);
    expect(requestTimeoutMs({ CORE_API_REQUEST_TIMEOUT_MS: '1500' })).toBe(1500);
    expect(() => requestTimeoutMs({ CORE_API_REQUEST_TIMEOUT_MS: 'x' })).toThrow(/^CORE_API_REQUEST_TIMEOUT_MS=x: expected a number above 0/);
  });
  it('budget, wall cap and vitest timeout nest: a request ends inside its test, a test inside vitest', () => {
    const env = { CORE_API_REQUEST_TIMEOUT_MS: '2000' };
    expect(testBudgetMs(undefined, env)).toBe(BUDGET_REQUESTS * 2000);
    expect(testWallMs(undefined, env)).toBe(WALL_FACTOR * BUDGET_REQUESTS * 2000);
    expect(vitestTimeoutMs(undefined, env)).toBe(testWallMs(undefined, env) + VITEST_GRACE_MS);
    expect(testBudgetMs(60_000, env)).toBe(60_000);
    expect(requestTimeoutMs(env)).toBeLessThan(testBudgetMs(undefined, env));
  });
});

describe('Budget', () => {
  it('charges only the time it is not paused, and fires once at the budget', () => {
    let now = 0;
    let fired = 0;
    const b = new Budget(
      100,
      () => (fired += 1),
      () => now,
    );
    now = 40;
    b.pause();
    b.pause(); // nested
    now = 1_000;
    b.resume();
    expect(b.chargedMs()).toBe(40);
    b.resume();
    now = 1_050;
    expect(b.chargedMs()).toBe(90);
    b.stop();
    expect(fired).toBe(0);
  });
  it('expires on the real clock', async () => {
    let fired = 0;
    new Budget(20, () => (fired += 1));
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(1);
  });
});

describe('a cut-off test names what it waited on', () => {
  it('the oldest request in flight, else what it is queued for', () => {
    const scope = { inflight: new Map(), queued: new Map() };
    expect(waitingWords(scope, 10_000)).toMatch(/between requests/);
    scope.queued.set(Symbol('fixture'), { what: 'a shared fixture', since: 4_000 });
    expect(waitingWords(scope, 10_000)).toBe('queued for a shared fixture for 6.0 s');
    scope.inflight.set(Symbol('patch'), { what: 'PATCH /assistants/a', since: 7_500 });
    scope.inflight.set(Symbol('get'), { what: 'GET /assistants/a', since: 2_000 });
    expect(waitingWords(scope, 10_000)).toBe('waiting on GET /assistants/a for 8.0 s (and 1 more requests)');
  });
  it('markInflight and markQueued keep the scope and pause the budget while queued', () => {
    runAsTest({ meta: {} } as any, () => {
      const scope = currentScope()!;
      let now = 0;
      scope.budget = new Budget(
        1_000,
        () => undefined,
        () => now,
      );
      const done = markInflight('GET /x');
      expect([...scope.inflight.values()][0].what).toBe('GET /x');
      done();
      expect(scope.inflight.size).toBe(0);
      const unqueue = markQueued('a shared fixture');
      now = 500;
      unqueue();
      unqueue(); // once only
      expect(scope.budget.chargedMs()).toBe(0);
      scope.budget.stop();
    });
  });
});

describe('fixture pools', () => {
  it('a borrower cut off mid-change has the fixture read back before the next borrower gets it', async () => {
    const events: string[] = [];
    const pool = fixturePool(
      async () => ({ state: 'clean' }),
      1,
      async (f) => {
        events.push('recover');
        f.state = 'clean';
      },
    );
    const judged = new AbortController();
    const first = runAsTest(
      { meta: {} } as any,
      () =>
        pool.use(async (f) => {
          f.state = 'half-changed';
          judged.abort();
          events.push('cut off');
        }),
      { signal: judged.signal },
    );
    const second = runAsTest({ meta: {} } as any, () => pool.use(async (f) => void events.push(`next sees ${f.state}`)));
    await Promise.all([first, second]);
    expect(events).toEqual(['cut off', 'recover', 'next sees clean']);
    await pool.close();
  });
  it('a borrower judged while it waited never gets the fixture', async () => {
    const pool = fixturePool(async () => ({ n: 0 }), 1);
    let release!: () => void;
    const holder = pool.use(() => new Promise<void>((r) => (release = r)));
    const judged = new AbortController();
    const waiter = runAsTest({ meta: {} } as any, () => pool.use(async (f) => void (f.n += 1)), { signal: judged.signal });
    judged.abort(new Error('judged'));
    await new Promise((r) => setTimeout(r, 10));
    release();
    await holder;
    await expect(waiter).rejects.toThrow('judged');
    await pool.use(async (f) => expect(f.n).toBe(0));
    await pool.close();
  });
});
