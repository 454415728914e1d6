/**
 * The one judgment of time (issue 41). Every check that judges a window, a deadline, an order in
 * time or "immediately" — insights before and after their metrics land (§4.5), arrival and silence
 * windows of webhooks and the growth of their retry waits (§6), an answer "promptly" (§2.3), the
 * server's `metadata.timestamp` (§2.1), a limit spent within its window (§4.5 mint rate) — reads the
 * runner's clock through a {@link TimeWindow} and judges through {@link TimeWindow.judge}. The
 * judgment knows what could make a conformant target look late or early without being so:
 *
 * - the runner's own lateness over the same window (helpers/base/lateness.ts: a busy event loop, a
 *   starved CPU, a long garbage collection stretch every wait and every measured duration);
 * - the target's own clock, where an answer shows it (`metadata.timestamp`, §2.1; the `Date` header):
 *   when it says the requirement held, the runner's reading is not the target's.
 *
 * It judges only what neither can explain: otherwise the test ends as an `error` (helpers/live/own-side.ts
 * `late-runner`, `window`) naming the lateness, never a `fail`. A stopwatch ({@link stopwatch}) is
 * for waits and budgets, which judge nothing. test/unit/time-judgments.test.ts finds every clock read
 * and every comparison of a measured time in suites/ and the check helpers that bypasses this module.
 */
import { channel } from 'node:diagnostics_channel';
import { epochWithin, latenessOver, latenessWords, watchLateness, type Lateness } from '../base/lateness';
import { ownSide } from '../live/own-side';
import type { Checks } from './engine';
import type { ApiResponse } from '../base/exchange';
import type { TestRecorder } from '../record/test-recorder';

/**
 * Lateness of the runner (ms) beyond which a wait that ran out, or a window that closed, may be the
 * runner's doing: a quarter of the 400 ms margin the webhook retry windows keep (helpers/webhooks/timing.ts `nextRetryWindowMs`).
 */
export const LATE_MS = 100;

/**
 * Where a fresh {@link TimeWindow} says it opened (`{ fromMs }`): nothing listens in a run; the
 * own-clock rehearsal (test/integration/own-clock.test.ts) blocks the runner inside every window
 * from a subscriber preloaded into the nested run (test/support/late-runner.mjs). Node's
 * diagnostics_channel costs nothing without a subscriber.
 */
export const WINDOW_OPENED = channel('core-api:time-window-opened');

/** A stopwatch on the runner's monotonic clock, for waits, polls and budgets (never a verdict). */
export interface Stopwatch {
  /** performance.now() when it started, ms. */
  readonly startedMs: number;
  /** ms since it started. */
  elapsedMs(): number;
  /** Whether `ms` have passed since it started. */
  over(ms: number): boolean;
  /** ms left of `ms` since it started (0 when over). */
  leftOf(ms: number): number;
}

/** A {@link Stopwatch} started now. */
export function stopwatch(): Stopwatch {
  const startedMs = performance.now();
  const elapsedMs = () => performance.now() - startedMs;
  return { startedMs, elapsedMs, over: (ms) => elapsedMs() >= ms, leftOf: (ms) => Math.max(0, ms - elapsedMs()) };
}

/** What the target's own clock says of an answer: epoch ms, and how fine it is (1 ms for `metadata.timestamp`, 1 s for `Date`). */
export interface TargetTime {
  epochMs: number;
  resolutionMs: number;
  /** Where it was read: `metadata.timestamp` or `Date`. */
  from: 'metadata.timestamp' | 'Date';
}

/** The target's clock of an answer (§2.1 `metadata.timestamp`, else the `Date` header), or undefined when it shows none that parses. */
export function targetTime(res: Pick<ApiResponse, 'headers' | 'json'> | undefined): TargetTime | undefined {
  const stamp = (res?.json as { metadata?: { timestamp?: unknown } } | undefined)?.metadata?.timestamp;
  const t = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  if (!Number.isNaN(t)) return { epochMs: t, resolutionMs: 1, from: 'metadata.timestamp' };
  const date = res?.headers?.date;
  const d = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return Number.isNaN(d) ? undefined : { epochMs: d, resolutionMs: 1_000, from: 'Date' };
}

/** How a {@link TimeWindow.judge} words a failure, and what could explain it. */
export interface TimeJudgment {
  /** What the requirement expects ("404 before the metrics land", "< 4000 ms"). */
  expected: string;
  /** What the runner saw ("200 at most 12 ms after the call ended"). */
  actual: string;
  /** The answer the check is about, for the failure's request and answer lines. */
  res?: ApiResponse;
  /**
   * Whether a runner `lateMs` late at worst over the window could make a conformant target look
   * like this (default: `lateMs` ≥ {@link LATE_MS}); `() => false` where the measure bounds the
   * target's from the safe side (a span from before a request left to after its answer came).
   */
  explainedBy?: (lateMs: number) => boolean;
  /** What the target's own clock says: true when it shows the requirement held (then never `fail`). */
  targetHolds?: boolean;
}

/** A window of a time judgment: opened when what it judges starts, closed (or judged) when it ends. */
export class TimeWindow {
  /** performance.now() and Date.now() when it opened, ms. */
  readonly fromMs: number;
  readonly fromEpochMs: number;
  /** performance.now() and Date.now() when it closed, ms (undefined while open). */
  toMs: number | undefined;
  toEpochMs: number | undefined;

  /** Opens a window now (or at `fromMs`, a performance.now() time already taken, such as an arrival), watching the runner's lateness. */
  constructor(fromMs?: number) {
    watchLateness();
    this.fromMs = fromMs ?? performance.now();
    this.fromEpochMs = Date.now() - (performance.now() - this.fromMs);
    if (fromMs === undefined && WINDOW_OPENED.hasSubscribers) WINDOW_OPENED.publish({ fromMs: this.fromMs });
  }

  /** Closes the window now, or at `toMs` (a performance.now() time already taken, such as a last arrival); a later call moves nothing; returns it. */
  close(toMs?: number): this {
    if (this.toMs === undefined) {
      const now = performance.now();
      this.toMs = toMs ?? now;
      this.toEpochMs = Date.now() - (now - this.toMs);
    }
    return this;
  }

  /** ms from its opening to its closing (or to now while open), on the runner's clock. */
  spanMs(): number {
    return (this.toMs ?? performance.now()) - this.fromMs;
  }

  /**
   * Whether the span is surely shorter than `ms`, `marginMs` (default 10 ms) kept for two clocks'
   * rounding: a span from before a request left to after its answer came bounds the target's from
   * above, the runner's lateness included, so a short one is a sure reading.
   */
  surelyWithin(ms: number, marginMs = 10): boolean {
    return this.spanMs() < ms - marginMs;
  }

  /** Whether the target's epoch time `epochMs` lies within the window's wall-clock span widened by `toleranceMs` either side. */
  holdsEpoch(epochMs: number, toleranceMs: number): boolean {
    return epochWithin(epochMs, this.fromEpochMs, this.toEpochMs ?? Date.now(), toleranceMs);
  }

  /** The runner's lateness over the window (to its closing, or now). */
  lateness(): Lateness {
    return latenessOver(this.fromMs, this.toMs ?? performance.now());
  }

  /** Whether the runner ran `ms` late or more over the window (a wait it spent late proves no silence). */
  lateBy(ms = LATE_MS): boolean {
    const late = this.lateness();
    return late.watched && late.maxMs >= ms;
  }

  /**
   * The one judgment: `holds` as the runner measured it. Recorded on `checks` when it holds, or
   * when neither the target's clock nor the runner's lateness over the window can explain that it
   * does not (`judgment.explainedBy`); otherwise the test ends as an `error` naming them.
   * @throws OwnSideError (`late-runner`, an `error`) when the failure may be the runner's clock's
   * @throws ConformanceFailure when it fails (unless `checks` is soft)
   */
  judge(checks: Checks, requirement: string, holds: boolean, judgment: TimeJudgment, record?: TestRecorder): void {
    if (!holds) this.unlessExplained(requirement, judgment, record);
    checks.that(requirement, holds, { expected: judgment.expected, actual: judgment.actual, res: judgment.res });
  }

  /**
   * A duration the runner measured inside the window (an answer's `durationMs`, ms) is shorter than
   * `limitMs`: {@link judge} with the excess as what the runner's lateness must reach to explain it.
   * @throws OwnSideError (`late-runner`) when the runner was late by the excess or more over the window
   * @throws ConformanceFailure when it is not shorter (unless `checks` is soft)
   */
  judgeWithin(checks: Checks, requirement: string, measuredMs: number, limitMs: number, res?: ApiResponse, record?: TestRecorder): void {
    const judgment = { expected: `< ${limitMs} ms`, actual: `${Math.round(measuredMs)} ms`, res, explainedBy: byExcess(measuredMs - limitMs) };
    this.judge(checks, requirement, measuredMs < limitMs, judgment, record);
  }

  /**
   * Returns when a time reading that fails (`what`, in words) is the target's; ends the test as an
   * `error` (`late-runner`) when the target's clock or the runner's lateness over the window can
   * explain it, or the lateness was not watched. For a caller whose failure is recorded another way.
   * @throws OwnSideError then
   */
  unlessExplained(requirement: string, judgment: Pick<TimeJudgment, 'actual' | 'explainedBy' | 'targetHolds'>, record?: TestRecorder): void {
    if (judgment.targetHolds === true)
      throw ownSide('late-runner', `${requirement}: the runner saw ${judgment.actual}, but the target's own clock says it held: no verdict`, record);
    if (this.explains(judgment.explainedBy)) {
      const late = this.lateness();
      throw ownSide(
        'late-runner',
        `${requirement}: ${judgment.actual}, but the runner was ${late.watched ? latenessWords(late) : 'not watching its own lateness'} over the same window: its own clock may have made it so; no verdict`,
        record,
      );
    }
  }

  /**
   * Whether the runner's own lateness over the window could explain a failing time reading, as
   * {@link unlessExplained} decides it (`explainedBy` of the lateness in ms; default: at least
   * {@link LATE_MS}); true too when the lateness was not watched. A test may then take a fresh
   * reading rather than end without a verdict.
   */
  explains(explainedBy: TimeJudgment['explainedBy'] = (lateMs: number) => lateMs >= LATE_MS): boolean {
    if (explainedBy === NEVER) return false;
    const late = this.lateness();
    return !late.watched || explainedBy(late.maxMs);
  }

  /**
   * A limit check that could not finish inside the window it judges proves nothing: when the span
   * (from before the first spending left) reached `windowMs`, less a second for the last answer's
   * trip, the first spending may have aged out of a sliding window (a budget per minute spent while
   * 429s of a gateway were waited out). The target's clock decides where it can be read: when the
   * first and the last answer of the spending (`answers`) show times ({@link targetTime}) whose
   * distance, widened by their resolution, is inside that, the target counted them within its window
   * whatever the runner's clock says. Ends the test as an `error` (`window`) otherwise; returns when inside.
   * @param what the check, in words ("the per-tenant mint budget")
   * @param answers the spending's answers, first and last (undefined ones are left out)
   * @throws OwnSideError (`window`) when the window was outrun
   */
  spentWithin(windowMs: number, what: string, record?: TestRecorder, answers: readonly (ApiResponse | undefined)[] = []): void {
    const tookMs = this.spanMs();
    if (tookMs < windowMs - 1_000) return;
    const times = answers.map((a) => targetTime(a)).filter((t): t is TargetTime => t !== undefined);
    const targetMs = times.length >= 2 ? times[times.length - 1].epochMs - times[0].epochMs + Math.max(...times.map((t) => t.resolutionMs)) : undefined;
    if (targetMs !== undefined && targetMs < windowMs - 1_000) return;
    const onTarget = targetMs === undefined ? '' : ` (${(targetMs / 1000).toFixed(0)} s on the target's own clock)`;
    throw ownSide(
      'window',
      `${what}: spending it took ${(tookMs / 1000).toFixed(1)} s${onTarget}, not inside the ${(windowMs / 1000).toFixed(0)} s window it judges (429s waited out, a slow target): the first spending may have aged out; no verdict`,
      record,
    );
  }
}

/** `explainedBy` of a reading the runner's lateness cannot spoil (it bounds the target's from the safe side). */
export const NEVER = (): boolean => false;

/** `explainedBy` of a duration `excessMs` over its limit: a runner at least that late may have stretched it so. */
export const byExcess =
  (excessMs: number) =>
  (lateMs: number): boolean =>
    lateMs >= excessMs;

/** Opens a {@link TimeWindow} now, or at `fromMs` (a performance.now() time already taken, such as the first arrival of a schedule). */
export function openWindow(fromMs?: number): TimeWindow {
  return new TimeWindow(fromMs);
}

// Watched from the first import: a window opened later is known from its first millisecond.
watchLateness();
