/**
 * Judging a model B retry schedule from arrival times alone (§6 Model B rule 3: "retried up to 5
 * times with exponential backoff"; §8: "webhook retries: 5 attempts, exponential backoff"). Pure
 * functions, unit-tested in test/unit/webhook-timing.test.ts; the webhooks suite applies them to
 * what its receiver saw. Only ratios between successive gaps are judged, never absolute times, so
 * the same check holds for any base delay and on a slow machine.
 */

/** Thresholds of {@link analyseBackoff}. */
export interface BackoffTolerance {
  /**
   * Each gap must be at least this multiple of the previous one, less `jitterMs` (default 1.3:
   * doubling with ±20 % jitter still passes, a constant delay does not).
   */
  minStepRatio: number;
  /** Absolute slack per step in ms for timer jitter on tiny delays (default 10 ms). */
  jitterMs: number;
  /** The geometric mean of the step ratios must reach this (default 1.4; doubling gives 2, a constant delay 1). */
  minMeanRatio: number;
}

/** Defaults of {@link BackoffTolerance}. */
export const DEFAULT_BACKOFF_TOLERANCE: BackoffTolerance = { minStepRatio: 1.3, jitterMs: 10, minMeanRatio: 1.4 };

/** What {@link analyseBackoff} found. Times in ms. */
export interface BackoffAnalysis {
  /** Gaps between successive attempts, ms. */
  gapsMs: number[];
  /** gap[i+1] / gap[i]. */
  ratios: number[];
  /** Geometric mean of `ratios` (NaN with fewer than two gaps). */
  meanRatio: number;
  /** True when the gaps grow about geometrically under the tolerance. */
  exponential: boolean;
  /** One sentence per violated step or threshold; empty when `exponential`. */
  problems: string[];
}

/**
 * Analyses attempt arrival times (monotonic ms, in arrival order) for exponential backoff.
 * With fewer than three attempts (fewer than two gaps) nothing can be judged: `exponential` is true
 * and `problems` empty — callers check the attempt count separately.
 * @throws RangeError when the times are not in ascending order.
 */
export function analyseBackoff(arrivalsMs: number[], tol: BackoffTolerance = DEFAULT_BACKOFF_TOLERANCE): BackoffAnalysis {
  for (let i = 1; i < arrivalsMs.length; i++) {
    if (!(arrivalsMs[i] >= arrivalsMs[i - 1])) throw new RangeError('arrival times must ascend');
  }
  const gapsMs = arrivalsMs.slice(1).map((t, i) => t - arrivalsMs[i]);
  const ratios = gapsMs.slice(1).map((g, i) => g / Math.max(gapsMs[i], 0.001));
  const problems: string[] = [];
  gapsMs.slice(1).forEach((g, i) => {
    const prev = gapsMs[i];
    if (g + tol.jitterMs < tol.minStepRatio * prev) {
      problems.push(`retry ${i + 2} waited ${fmt(g)} ms after a ${fmt(prev)} ms wait (ratio ${ratios[i].toFixed(2)}, expected ≥ ${tol.minStepRatio} with ${tol.jitterMs} ms slack)`);
    }
  });
  const meanRatio = ratios.length ? Math.exp(ratios.reduce((s, r) => s + Math.log(Math.max(r, 1e-6)), 0) / ratios.length) : Number.NaN;
  if (ratios.length && !(meanRatio >= tol.minMeanRatio)) {
    problems.push(`the waits grow by a factor of ${meanRatio.toFixed(2)} per retry on average (expected ≥ ${tol.minMeanRatio}: exponential, not constant or linear)`);
  }
  return { gapsMs, ratios, meanRatio, exponential: problems.length === 0, problems };
}

/**
 * Reading of an attempt count against "retried up to 5 times" (§6) / "5 attempts" (§8).
 * - `five-retries`: 6 attempts (1 + 5 retries), the reading of §6.
 * - `five-attempts`: 5 attempts in all (1 + 4 retries), the reading of §8's limit table.
 * - `too-few` / `too-many`: neither reading (e.g. 3 retries, or 6 and more retries).
 * "Up to" is read as the cap reached when every attempt fails; only a 2xx ends a delivery earlier.
 */
export type RetryReading = 'five-retries' | 'five-attempts' | 'too-few' | 'too-many';

/** Classifies the total number of attempts of a delivery that never got a 2xx. */
export function retryReading(attempts: number): RetryReading {
  if (attempts === 6) return 'five-retries';
  if (attempts === 5) return 'five-attempts';
  return attempts < 5 ? 'too-few' : 'too-many';
}

/**
 * How long to wait for the next retry before concluding there is none, ms: long enough for the next
 * exponential step (2.5× the last gap, jitter included) and never shorter than 4 base delays, plus a
 * fixed margin for scheduling on a loaded machine.
 * @param lastGapMs the last gap seen (0 when only one attempt arrived)
 * @param baseMs the configured first retry delay (`webhookRetryBaseMs`)
 * @param marginMs fixed extra wait (default 250 ms)
 */
export function nextRetryWindowMs(lastGapMs: number, baseMs: number, marginMs = 250): number {
  return Math.ceil(Math.max(2.5 * lastGapMs, 4 * baseMs) + marginMs);
}

/**
 * Total time of `retries` doubling retry delays starting at `baseMs` (base × (2^retries − 1)), ms:
 * how long a quiet window must last to prove that no retry follows (model A, §6 rule 3).
 */
export function retryScheduleMs(baseMs: number, retries = 5): number {
  return baseMs * (2 ** retries - 1);
}

function fmt(ms: number): string {
  return ms.toFixed(ms < 10 ? 1 : 0);
}
