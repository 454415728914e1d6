/**
 * How long the suite waits for the target, and how a test's time is charged (docs/live-tenants.md, "Safety
 * and resilience"). One number drives the rest, so a hung request always ends well before
 * the test that sent it, and the test always ends before vitest's own timeout:
 *
 * - the request deadline (`CORE_API_REQUEST_TIMEOUT_MS`, default 10 s, helpers/base/env-vars.ts):
 *   the longest one attempt of one request may take, headers and body together;
 * - a test's budget: {@link BUDGET_REQUESTS} request deadlines (or the test's own `timeout`), charged
 *   only while the test is not queued for a shared fixture or paused by a 429 (helpers/world/concurrency.ts);
 * - a test's wall cap: {@link WALL_FACTOR} budgets, queued time included;
 * - vitest's timeout: the wall cap plus {@link VITEST_GRACE_MS}, so vitest never judges first.
 *
 * Bottom floor: imports nothing of helpers/ but the environment's reader.
 */
import { readEnv, type EnvSource } from './env.ts';

/** A test's default budget, in request deadlines. */
export const BUDGET_REQUESTS = 3;
/** A test's wall cap, in budgets (queued time included). */
export const WALL_FACTOR = 4;
/** How long after the wall cap vitest's own timeout fires, in ms. */
export const VITEST_GRACE_MS = 5_000;

/**
 * The request deadline in ms: `CORE_API_REQUEST_TIMEOUT_MS` (a number above 0; default 10,000) of
 * `env`, default the process's environment.
 * @throws EnvError when the variable holds anything else.
 */
export function requestTimeoutMs(env?: EnvSource): number {
  return readEnv('CORE_API_REQUEST_TIMEOUT_MS', env);
}

/** A test's charged budget in ms: its own `timeout` when given, else {@link BUDGET_REQUESTS} request deadlines. */
export function testBudgetMs(own?: number, env?: EnvSource): number {
  return own ?? BUDGET_REQUESTS * requestTimeoutMs(env);
}

/** A test's wall cap in ms (queued time included): {@link WALL_FACTOR} budgets. */
export function testWallMs(own?: number, env?: EnvSource): number {
  return WALL_FACTOR * testBudgetMs(own, env);
}

/** The timeout handed to vitest for a test, in ms: the wall cap plus {@link VITEST_GRACE_MS}. */
export function vitestTimeoutMs(own?: number, env?: EnvSource): number {
  return testWallMs(own, env) + VITEST_GRACE_MS;
}

/**
 * A stopwatch that charges time only while not paused: a test's budget. Pauses nest (several
 * concurrent waits of one test); the clock runs again when the last one ends. `onExpired` is
 * called once, when the charged time reaches `budgetMs`.
 */
export class Budget {
  private charged = 0;
  private since: number | undefined;
  private pauses = 0;
  private timer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    readonly budgetMs: number,
    private readonly onExpired: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.run();
  }

  /** Charged time so far, in ms. */
  chargedMs(): number {
    return this.charged + (this.since === undefined ? 0 : this.now() - this.since);
  }

  /** Stops charging until the matching {@link Budget.resume}. */
  pause(): void {
    this.pauses += 1;
    if (this.pauses !== 1 || this.since === undefined) return;
    this.charged += this.now() - this.since;
    this.since = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Ends one pause; charging starts again when no pause is left. */
  resume(): void {
    if (this.pauses === 0) return;
    this.pauses -= 1;
    if (this.pauses === 0) this.run();
  }

  /** Stops the budget for good (the test ended). */
  stop(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    if (this.done) return;
    this.since = this.now();
    const left = this.budgetMs - this.charged;
    if (left <= 0) return this.expire();
    this.timer = setTimeout(() => this.expire(), left);
    this.timer.unref?.();
  }

  private expire(): void {
    if (this.done) return;
    this.stop();
    this.onExpired();
  }
}
