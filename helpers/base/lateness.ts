/**
 * A loaded runner's clock is not the API's schedule (issue 32, item 4). A check that judges time
 * from this process's own clock — the arrival times of webhook retries at the suite's receiver, a
 * window "nothing more arrives within" — measures the runner as much as the API when the runner
 * is loaded: a timer or an incoming request handled 100 ms late stretches one wait and shrinks the
 * next. So the runner measures its own lateness over the same window, and a timing check judges
 * only what that lateness cannot explain: otherwise the verdict is an `error` naming the lateness
 * (helpers/live/own-side.ts `late-runner`), never a `fail`.
 *
 * The measure is timer drift: a 10 ms interval timer notes how late each tick ran (a busy event
 * loop, a starved CPU, a long garbage collection all show as late ticks). It starts on the first
 * {@link watchLateness} (the webhook receiver calls it when it starts) and keeps the last two
 * minutes of ticks; the timer is unref'd, so it never keeps a process alive. Node's
 * `perf_hooks.monitorEventLoopDelay` measures the same thing as a histogram without times, so it
 * cannot answer for a given window; it is used for the whole-life figure in {@link latenessOver}'s
 * words.
 */
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

/** Interval of the drift timer, ms. */
export const TICK_MS = 10;
/** How long ticks are kept, ms. */
const KEEP_MS = 120_000;

/** Tick times (performance.now(), ms) and how late each ran, ms; oldest first. */
const ticks: { at: number; lateMs: number }[] = [];
let timer: NodeJS.Timeout | undefined;
let histogram: IntervalHistogram | undefined;
/** When the drift timer started (performance.now(), ms), and up to when ticks were let go (kept {@link KEEP_MS}). */
let startedAtMs = Number.POSITIVE_INFINITY;
let forgottenUntilMs = Number.NEGATIVE_INFINITY;

/** Starts measuring this process's lateness, once (later calls do nothing). */
export function watchLateness(): void {
  if (timer) return;
  startedAtMs = performance.now();
  let expected = startedAtMs + TICK_MS;
  timer = setInterval(() => {
    const now = performance.now();
    ticks.push({ at: now, lateMs: Math.max(0, now - expected) });
    expected = now + TICK_MS;
    while (ticks.length && ticks[0].at < now - KEEP_MS) forgottenUntilMs = ticks.shift()!.at;
  }, TICK_MS);
  timer.unref();
  histogram = monitorEventLoopDelay({ resolution: TICK_MS });
  histogram.enable();
}

/** Stops measuring and forgets what was measured (tests). */
export function stopWatchingLateness(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
  histogram?.disable();
  histogram = undefined;
  ticks.length = 0;
  startedAtMs = Number.POSITIVE_INFINITY;
  forgottenUntilMs = Number.NEGATIVE_INFINITY;
}

/** The runner's lateness over a window: the worst late tick, and whether the window was watched at all. */
export interface Lateness {
  /** The latest any tick ran in the window, ms (0 when none was late). */
  maxMs: number;
  /** Ticks seen in the window. */
  ticks: number;
  /**
   * Whether the drift timer was running over the whole window, started at or before its start and
   * no tick of it forgotten (else nothing is known: `maxMs` is 0). The first tick after the start
   * counts the lateness since the start, so a timer started when the window opened watches it.
   */
  watched: boolean;
}

/**
 * The runner's lateness between `fromMs` and `toMs` (performance.now() times), ticks up to one
 * tick past the end included (a blocked loop shows in the first tick after it), and the tick still
 * owed when none ran since the window's end (a loop blocked until just now, judged before its timer ran again).
 */
export function latenessOver(fromMs: number, toMs: number): Lateness {
  const inWindow = ticks.filter((t) => t.at >= fromMs && t.at <= toMs + TICK_MS + t.lateMs);
  const watched = timer !== undefined && startedAtMs <= fromMs && forgottenUntilMs < fromMs;
  // A tick still owed: the loop may be blocked right now, and a judgment made before the timer runs again would not see it.
  const last = ticks.length ? ticks[ticks.length - 1].at : startedAtMs;
  const owedMs = watched && last <= toMs ? Math.max(0, performance.now() - last - TICK_MS) : 0;
  return { maxMs: inWindow.reduce((m, t) => Math.max(m, t.lateMs), owedMs), ticks: inWindow.length, watched };
}

/** "up to 180 ms late (event-loop delay p99 over the process's life 12 ms)": the lateness in words. */
export function latenessWords(l: Lateness): string {
  const p99 = histogram ? ` (event-loop delay p99 over the process's life ${(histogram.percentile(99) / 1e6).toFixed(0)} ms)` : '';
  return `up to ${l.maxMs.toFixed(0)} ms late${p99}`;
}

/**
 * Whether a time the target stamped (`epochMs`, e.g. §2.1 `metadata.timestamp`) lies within the
 * runner's wall-clock span of the exchange, `fromEpochMs` (before the request left) to `toEpochMs`
 * (after its answer came), widened by `toleranceMs` either side for the two clocks' skew. The
 * span bounds the target's moment from both sides, so the runner's lateness only widens it and
 * never makes a conformant stamp look wrong. The primitive of helpers/checks/clock.ts
 * `TimeWindow.holdsEpoch`, for the layers below it (the envelope audit). NaN never lies within.
 */
export function epochWithin(epochMs: number, fromEpochMs: number, toEpochMs: number, toleranceMs: number): boolean {
  return epochMs >= fromEpochMs - toleranceMs && epochMs <= toEpochMs + toleranceMs;
}
