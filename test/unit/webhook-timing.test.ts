/**
 * The backoff judge (helpers/webhooks/timing.ts) used by the webhooks suite for §6 Model B rule 3:
 * doubling passes with and without jitter, constant and shrinking delays fail, and the attempt count
 * readings (§6 "up to 5 retries" against §8 "5 attempts") are classified as documented.
 */
import { describe, expect, test } from 'vitest';
import { readEnv } from '../../helpers/base/env';
import fc from 'fast-check';
import { analyseBackoff, retryReading, nextRetryWindowMs, retryScheduleMs } from '../../helpers/webhooks/timing';

const SEED = readEnv('FC_SEED') ?? 5_060_303;

/** Arrival times of `n` attempts with delays base·factor^i, each scaled by a jitter in [1-j, 1+j]. */
function arrivals(n: number, base: number, factor: number, jitter: (i: number) => number = () => 1): number[] {
  const out = [1000];
  for (let i = 0; i < n - 1; i++) out.push(out[i] + base * factor ** i * jitter(i) + 1);
  return out;
}

describe('analyseBackoff', () => {
  test('doubling from 20 ms passes', () => {
    const a = analyseBackoff(arrivals(6, 20, 2));
    expect(a.exponential).toBe(true);
    expect(a.medianRatio).toBeGreaterThan(1.8);
    expect(a.gapsMs).toHaveLength(5);
  });

  test('a constant delay fails, naming the average growth', () => {
    const a = analyseBackoff(arrivals(6, 20, 1));
    expect(a.exponential).toBe(false);
    expect(a.problems.join(' ')).toMatch(/median factor of 1\.0/);
  });

  test('shrinking delays fail', () => {
    expect(analyseBackoff(arrivals(6, 320, 0.5)).exponential).toBe(false);
  });

  test('a first wait stretched by a busy machine does not decide the verdict', () => {
    // measured on a loaded 2-core machine with a 20 ms base: 64, 60, 96, 174, 342
    expect(analyseBackoff([0, 64, 124, 220, 394, 736]).exponential).toBe(true);
    expect(analyseBackoff([0, 100, 160, 256, 430, 772]).exponential).toBe(true);
  });

  test('three retries: a stretched first wait is tolerated, a constant delay is not', () => {
    // measured: 59, 47, 93 ms for a 20 ms base
    expect(analyseBackoff([0, 59, 106, 199]).exponential).toBe(true);
    expect(analyseBackoff([0, 20, 41, 61]).exponential).toBe(false);
    expect(analyseBackoff([0, 60, 90, 115]).exponential).toBe(false);
  });

  test('a constant delay stretched by the same busy machine still fails', () => {
    expect(analyseBackoff([0, 64, 94, 119, 147, 169]).exponential).toBe(false);
  });

  test('two flat steps out of four fail even when the median grows', () => {
    const a = analyseBackoff([0, 50, 150, 250, 350, 750]);
    expect(a.flatSteps.length).toBeGreaterThanOrEqual(2);
    expect(a.exponential).toBe(false);
  });

  test('a factor of 1.5 (still exponential) passes', () => {
    expect(analyseBackoff(arrivals(6, 100, 1.5)).exponential).toBe(true);
  });

  test('doubling with ±20 % jitter and up to 8 ms of timer noise always passes (seeded)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.8, max: 1.2, noNaN: true }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.double({ min: 0, max: 8, noNaN: true }), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 20, max: 1000 }),
        (jit, noise, base) => {
          const t = [0];
          for (let i = 0; i < 5; i++) t.push(t[i] + base * 2 ** i * jit[i] + noise[i]);
          expect(analyseBackoff(t).exponential).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  test('fewer than three attempts judge nothing', () => {
    expect(analyseBackoff([0, 5]).exponential).toBe(true);
    expect(analyseBackoff([0]).gapsMs).toEqual([]);
  });

  test('unordered times throw', () => {
    expect(() => analyseBackoff([5, 1])).toThrow(RangeError);
  });
});

describe('retryReading', () => {
  test.each([
    [4, 'too-few'],
    [5, 'five-attempts'],
    [6, 'five-retries'],
    [7, 'too-many'],
    [9, 'too-many'],
  ] as const)('%i attempts → %s', (n, reading) => {
    expect(retryReading(n)).toBe(reading);
  });
});

describe('windows', () => {
  test('the quiet window outlasts the next doubling step and the whole schedule is base·31', () => {
    expect(nextRetryWindowMs(320, 20)).toBeGreaterThan(640);
    expect(nextRetryWindowMs(0, 20)).toBeGreaterThanOrEqual(80);
    expect(retryScheduleMs(20)).toBe(620);
  });
});
