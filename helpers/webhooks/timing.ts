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
   * The median of the step ratios (gap[i+1] / gap[i]) must reach this (default 1.4; doubling gives
   * 2, a constant delay 1). The median (the larger of two ratios), not the mean, so one wait
   * stretched by a busy machine (most often the first, shortest one) cannot decide the verdict.
   */
  minMedianRatio: number;
  /**
   * A single step "grows" when gap[i+1] + jitterMs ≥ minStepRatio × gap[i] (default 1.3: doubling
   * with ±20 % jitter still grows).
   */
  minStepRatio: number;
  /** Absolute slack per step in ms for timer jitter on tiny delays (default 20 ms: a busy 2-core machine delays a timer by tens of ms). */
  jitterMs: number;
  /** Steps allowed not to grow when there are two or more steps (default 1: one outlier). */
  allowedOutliers: number;
}

/** Defaults of {@link BackoffTolerance}. */
export const DEFAULT_BACKOFF_TOLERANCE: BackoffTolerance = { minMedianRatio: 1.4, minStepRatio: 1.3, jitterMs: 20, allowedOutliers: 1 };

/** What {@link analyseBackoff} found. Times in ms. */
export interface BackoffAnalysis {
  /** Gaps between successive attempts, ms. */
  gapsMs: number[];
  /** gap[i+1] / gap[i]. */
  ratios: number[];
  /** Median of `ratios` (the larger of two; NaN with fewer than two gaps). */
  medianRatio: number;
  /** Steps that did not grow (1-based retry numbers of the later gap). */
  flatSteps: number[];
  /** True when the gaps grow about geometrically under the tolerance. */
  exponential: boolean;
  /** One sentence per violated threshold; empty when `exponential`. */
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
  const flatSteps: number[] = [];
  gapsMs.slice(1).forEach((g, i) => {
    if (g + tol.jitterMs < tol.minStepRatio * gapsMs[i]) flatSteps.push(i + 2);
  });
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  // With two ratios the median would average in an outlier; the larger one is taken instead (the
  // same one-outlier allowance as for the steps below). Constant delays still give about 1.
  const medianRatio =
    sorted.length === 0 ? Number.NaN : sorted.length === 2 ? sorted[1] : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  if (ratios.length && !(medianRatio >= tol.minMedianRatio)) {
    problems.push(
      `the waits grow by a median factor of ${medianRatio.toFixed(2)} per retry (expected ≥ ${tol.minMedianRatio}: exponential, not constant or linear)`,
    );
  }
  const allowed = ratios.length >= 2 ? tol.allowedOutliers : 0;
  if (flatSteps.length > allowed) {
    problems.push(
      `${flatSteps.length} of ${ratios.length} waits did not grow by ≥ ${tol.minStepRatio}× (with ${tol.jitterMs} ms slack): retries ${flatSteps.join(', ')}` +
        (allowed ? ` (${allowed} allowed for a busy machine)` : ''),
    );
  }
  return { gapsMs, ratios, medianRatio, flatSteps, exponential: problems.length === 0, problems };
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
 * @param marginMs fixed extra wait (default 400 ms)
 */
export function nextRetryWindowMs(lastGapMs: number, baseMs: number, marginMs = 400): number {
  return Math.ceil(Math.max(2.5 * lastGapMs, 4 * baseMs) + marginMs);
}

/**
 * Total time of `retries` doubling retry delays starting at `baseMs` (base × (2^retries − 1)), ms:
 * how long a quiet window must last to prove that no retry follows (model A, §6 rule 3).
 */
export function retryScheduleMs(baseMs: number, retries = 5): number {
  return baseMs * (2 ** retries - 1);
}

/**
 * Whether arrival times observed `lateMs` late at most (each arrival may truly have come up to
 * `lateMs` earlier than the runner saw it: helpers/base/lateness.ts) could be an exponential schedule
 * under `tol`. Tries every arrival at its observed time, half and all of `lateMs` earlier (3^n
 * combinations, n ≤ 8; beyond, the two ends only), keeping the times ascending. True means the
 * runner's lateness alone may explain a failed {@link analyseBackoff}: no verdict on the schedule.
 */
export function couldBeExponential(arrivalsMs: number[], lateMs: number, tol: BackoffTolerance = DEFAULT_BACKOFF_TOLERANCE): boolean {
  if (analyseBackoff(arrivalsMs, tol).exponential) return true;
  if (!(lateMs > 0)) return false;
  const shifts = arrivalsMs.length <= 8 ? [0, lateMs / 2, lateMs] : [0, lateMs];
  const times: number[] = [];
  const tryFrom = (i: number): boolean => {
    if (i === arrivalsMs.length) return analyseBackoff(times, tol).exponential;
    for (const s of shifts) {
      const t = arrivalsMs[i] - s;
      if (i > 0 && t < times[i - 1]) continue;
      times[i] = t;
      if (tryFrom(i + 1)) return true;
    }
    return false;
  };
  return tryFrom(0);
}
