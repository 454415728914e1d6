/**
 * A model of the stated limits under concurrency (issue 39, item 4), beside the lifecycle model:
 * the per-tenant mint budget (§4.5, §7 exception 3) spent by the tenant key and an organization key
 * acting for the tenant (§5.2) one by one and at once, the insights batch (§4.5, §8: 1 to 25
 * unique ids) and the text test suite (§4.5, §8: up to 12 cases, iterations 1 to 10) sent at their
 * edges at once. suites/limits-model.test.ts draws command sequences with
 * fast-check, applies each to the target and here, and compares every answer with what the model
 * allows. The per-call slots under concurrency are the lifecycle model's (suites/lifecycle-model.test.ts
 * `FillAndRace`). Pure: no I/O.
 *
 * What a careful reading allows is a set: the rate is not shown (a simulator states it in its
 * control config); whether a refused mint spends budget is not shown either, so the budget left is
 * known exactly only while every mint so far was accepted ({@link LimitsModel.exact}); afterwards
 * only "no more accepted than the budget" holds. A mint on a live call with a free slot may still be
 * refused with a 409 other than `not_live` (the reason set is open, §7 exception 2).
 */
import type { Allowed } from './lifecycle-model';

/** The most ids one batch may hold (§4.5, §8). */
export const BATCH_MAX = 25;

/** The per-tenant mint budget of one tenant, as the model knows it. */
export interface LimitsModel {
  /** Mints a minute the tenant's budget holds (a simulator's `monitorMintsPerMinute`; not shown by §4.5). */
  rate: number;
  /** Mints the target accepted for the tenant in the run, with either key type. */
  accepted: number;
  /** Whether every mint sent so far was accepted: then exactly `rate - accepted` are left. */
  exact: boolean;
}

/** A fresh tenant's budget: `rate` mints a minute, none spent. */
export function initialLimits(rate: number): LimitsModel {
  return { rate, accepted: 0, exact: true };
}

/** A key type a mint is sent with: the tenant key, or the organization key naming the tenant (X-Tenant-Id). */
export type KeyType = 'tenant' | 'org';

/** What the model allows, with the `error.code` of an envelope refusal where one is fixed. */
export interface LimitAllowed extends Allowed {
  code?: string;
}

/**
 * One mint sent alone, on a live call with a free slot: while the budget is surely not spent, 2xx
 * (or a 409 other than not_live); once it is surely spent, the endpoint's 429; otherwise either.
 */
export function allowedLoneMint(m: Readonly<LimitsModel>): LimitAllowed {
  if (m.exact && m.accepted < m.rate)
    return {
      statuses: [200, 201, 409],
      reason: '!not_live',
      clause: '4.5/monitor-session-per-tenant',
      words: `a mint within the tenant's budget (${m.accepted} of ${m.rate} a minute spent, both key types counted) is accepted`,
    };
  if (m.exact)
    return {
      statuses: [429],
      clause: '4.5/monitor-session-429',
      words: `the tenant's budget of ${m.rate} a minute spent (by both key types), a mint answers the endpoint's 429`,
    };
  return { statuses: [200, 201, 409, 429], reason: '!not_live', clause: '4.5/monitor-session-mint', words: 'a mint on a live call' };
}

/** One of several mints sent at once on live calls with free slots: accepted, busy (a 409 other than not_live) or the endpoint's 429. */
export function allowedRaceMint(): LimitAllowed {
  return {
    statuses: [200, 201, 409, 429],
    reason: '!not_live',
    clause: '4.5/monitor-session-mint',
    words: "a mint sent at once with others is accepted, busy, or the endpoint's 429",
  };
}

/**
 * §4.5 "per-tenant 429": of `n` mints sent at once (`keys` in words) on a tenant whose budget was
 * `before`, `successes` were accepted. A breach when more were accepted than the budget had left
 * (known while every earlier mint was accepted), or when the tenant now holds more accepted mints
 * than its budget. Answers the words of the breach, or undefined.
 */
export function rateBreach(before: Readonly<LimitsModel>, successes: number, n: number, keys: string): string | undefined {
  const left = Math.max(0, before.rate - before.accepted);
  if (before.exact && successes > left)
    return `${successes} of ${n} mints sent at once (${keys}) were accepted with ${left} left of the tenant's budget of ${before.rate} a minute`;
  const total = before.accepted + successes;
  if (total > before.rate)
    return `after ${n} mints sent at once (${keys}) the tenant holds ${total} accepted mints within the minute, over its budget of ${before.rate}`;
  return undefined;
}

/** The model after mints were answered: `successes` accepted; a refused one leaves the budget left unknown. */
export function spent(m: LimitsModel, successes: number, refused: number): void {
  m.accepted += successes;
  if (refused > 0) m.exact = false;
}

/**
 * GET /calls/insights?ids= with `ids` (§4.5, §8): 1 to 25 unique ids answer 200 (whatever they
 * name: one unknown id never fails it); none, more than 25, or a repeated id, 400 VALIDATION_ERROR.
 */
export function allowedBatch(ids: readonly string[]): LimitAllowed {
  if (ids.length > 0 && ids.length <= BATCH_MAX && new Set(ids).size === ids.length)
    return { statuses: [200], clause: '4.5/insights-batch-bounds', words: `a batch of ${ids.length} unique id(s) (1 to ${BATCH_MAX}) is accepted` };
  if (ids.length > 0 && ids.length <= BATCH_MAX)
    return {
      statuses: [400],
      code: 'VALIDATION_ERROR',
      clause: '4.5/insights-batch-unique',
      words: 'a batch repeating an id is refused with 400 VALIDATION_ERROR',
    };
  return {
    statuses: [400],
    code: 'VALIDATION_ERROR',
    clause: '4.5/insights-batch-bounds',
    words: `a batch of ${ids.length} ids (outside 1 to ${BATCH_MAX}) is refused with 400 VALIDATION_ERROR`,
  };
}

/**
 * §4.5 "each miss is reported": the ids of `ids` (each one a miss: unknown, or a call whose metrics
 * have not landed) that the batch answer `data` does not name, as a string value or a key anywhere
 * in it (the answer's shape is not shown).
 */
export function unnamedIds(ids: readonly string[], data: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') found.add(v);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        found.add(k);
        walk(x);
      }
  };
  walk(data);
  return ids.filter((id) => !found.has(id));
}

/** The most cases one text test suite holds (§4.5, §8). */
export const SUITE_MAX_CASES = 12;

/**
 * POST /test-suites with `cases` cases and `iterations` (1 or 10, the edges of 1 to 10) (§4.5, §8;
 * the field names are assumed, the shape is not shown): up to 12 cases are accepted, 13 or more
 * refused with 400. `iterations` outside 1 to 10 is left out of the model: where it is judged (the
 * suite or the run) is not shown.
 */
export function allowedSuite(cases: number, iterations: number): LimitAllowed {
  if (cases > SUITE_MAX_CASES)
    return { statuses: [400], clause: '4.5/test-suite-max-cases', words: `a suite of ${cases} cases (over ${SUITE_MAX_CASES}) is refused with 400` };
  return {
    statuses: [200, 201],
    clause: cases === SUITE_MAX_CASES ? '4.5/test-suite-max-cases' : '4.5/test-suite-iterations',
    words: `a suite of ${cases} case(s) (up to ${SUITE_MAX_CASES}) with iterations ${iterations} (1 to 10) is accepted`,
  };
}

/** Every clause the model's expectations name, for the test's declaration. */
export const LIMITS_CLAUSES = [
  '4.5/monitor-session-per-tenant',
  '4.5/monitor-session-429',
  '4.5/monitor-session-mint',
  '4.5/monitor-session-delete',
  '4.5/insights-batch-bounds',
  '4.5/insights-batch-unique',
  '4.5/insights-batch-miss-reasons',
  '8/limit-insights-batch',
  '4.5/test-suite-max-cases',
  '8/limit-test-suite-cases',
  '4.5/test-suite-iterations',
  '8/limit-test-iterations',
];
