/**
 * How the requests of one suite file overlapped in time (issue 43): the longest chain of requests
 * sent one after another, and the most requests ever in flight at once. Against a target whose
 * every answer takes `L` ms, a file cannot finish in less than `chain × L`, and `inFlight` says how
 * far its concurrency (`CORE_API_CONCURRENCY`, the robustness phase's shared limit) was used. The
 * client records each attempt's span (helpers/test-recorder.ts `span`); the reporter folds the
 * spans of every test of a file into one {@link RequestOverlap} (the run record's `requests.overlap`).
 */

/** One attempt's span: when it was sent and when its answer (or its trouble) ended, in ms on one clock. */
export type RequestSpan = readonly [start: number, end: number];

/** How one file's requests overlapped. */
export interface RequestOverlap {
  /**
   * The longest chain of requests sent one after another: the most spans of which each starts
   * when or after the previous one ended (no two overlap). A lower bound of the file's wall time
   * is `chain` × the answer time.
   */
  chain: number;
  /** The most requests in flight at any one moment. */
  inFlight: number;
  /**
   * When the file's first request was sent and its last answer ended, in ms since the run started
   * (format 1.17; set when the run's start is known): where the file sat in the run's wall time.
   */
  firstMs?: number;
  /** See {@link RequestOverlap.firstMs}. */
  lastMs?: number;
}

/**
 * The {@link RequestOverlap} of `spans` (any order; a span whose end precedes its start counts as a
 * point). Empty: `{ chain: 0, inFlight: 0 }`. The chain is found greedily by earliest end (the most
 * pairwise disjoint intervals); a span that starts exactly when another ends follows it.
 */
export function requestOverlap(spans: readonly RequestSpan[]): RequestOverlap {
  const byEnd = spans.map(([s, e]) => [s, Math.max(s, e)] as const).sort((a, b) => a[1] - b[1]);
  let chain = 0;
  let free = -Infinity;
  for (const [s, e] of byEnd)
    if (s >= free) {
      chain += 1;
      free = e;
    }
  // Sweep: ends before starts at the same instant, so back-to-back requests are not counted as overlapping.
  const events = byEnd.flatMap(([s, e]) => [
    [s, 1],
    [e, -1],
  ]) as [number, number][];
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let inFlight = 0;
  for (const [, d] of events) {
    now += d;
    if (now > inFlight) inFlight = now;
  }
  return { chain, inFlight };
}

/**
 * {@link requestOverlap} per file of `spansByFile` (the suite file's path as the run record names
 * it). With `runStartMs` (the run's start on the spans' clock, ms since the epoch), each file also
 * gets `firstMs` and `lastMs`, whole ms since that start.
 */
export function overlapPerFile(spansByFile: ReadonlyMap<string, readonly RequestSpan[]>, runStartMs?: number): Record<string, RequestOverlap> {
  const out: Record<string, RequestOverlap> = {};
  for (const [file, spans] of spansByFile) {
    if (!spans.length) continue;
    out[file] = requestOverlap(spans);
    if (runStartMs === undefined) continue;
    let first = Infinity;
    let last = -Infinity;
    for (const [s, e] of spans) [first, last] = [Math.min(first, s), Math.max(last, s, e)];
    [out[file].firstMs, out[file].lastMs] = [Math.round(first - runStartMs), Math.round(last - runStartMs)];
  }
  return out;
}

/** How long the run's answers took: the median and the 90th percentile of every request's span, in whole ms (format 1.18). */
export interface AnswerTimes {
  medianMs: number;
  p90Ms: number;
  /** How many spans they were taken over. */
  count: number;
}

/** The {@link AnswerTimes} of every span of `spansByFile` (nearest-rank percentiles); undefined without spans. */
export function answerTimes(spansByFile: ReadonlyMap<string, readonly RequestSpan[]>): AnswerTimes | undefined {
  const took = [...spansByFile.values()].flatMap((spans) => spans.map(([s, e]) => Math.max(0, e - s))).sort((a, b) => a - b);
  if (!took.length) return undefined;
  const rank = (q: number) => took[Math.min(took.length - 1, Math.max(0, Math.ceil(q * took.length) - 1))];
  return { medianMs: Math.round(rank(0.5)), p90Ms: Math.round(rank(0.9)), count: took.length };
}

/**
 * Suite files that may be in flight at once, for the floor: the file workers the run had
 * (`requests.fileWorkers`, format 1.19), at most the files that sent requests; for a record before
 * 1.19, the most files measured at once ({@link filesInFlight}). At least 1.
 */
export function filesAtOnce(
  fileWorkers: number | undefined,
  overlap: Readonly<Record<string, RequestOverlap>>,
  perFile: Readonly<Record<string, number>>,
): number {
  const sending = Object.values(perFile).filter((n) => n > 0).length;
  return Math.max(1, fileWorkers !== undefined ? Math.min(fileWorkers, sending) : filesInFlight(overlap));
}

/** The most files whose requests were under way at one moment (`firstMs` to `lastMs` of each {@link RequestOverlap}); 0 without times. */
export function filesInFlight(overlap: Readonly<Record<string, RequestOverlap>>): number {
  const events = Object.values(overlap)
    .filter((o) => o.firstMs !== undefined && o.lastMs !== undefined)
    .flatMap((o) => [
      [o.firstMs!, 1],
      [o.lastMs!, -1],
    ]) as [number, number][];
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of events) most = Math.max(most, (now += d));
  return most;
}

/**
 * Where a run's wall time went against a target whose answers take `answerMs` (issue 43): the
 * floor (every request × `answerMs` over what may be in flight: `files` × `concurrency`), and the
 * file whose requests need longest at the most it had in flight (no run ends sooner unless that file
 * sends more at once). Times in ms.
 */
export interface RunTiming {
  floorMs: number;
  /** The file that needs longest at the most it had in flight, with its requests, that most, and the time (ms). */
  bound?: { file: string; requests: number; inFlight: number; ms: number };
}

/**
 * The {@link RunTiming} of a run of `total` requests (`perFile` of them per suite file, with their
 * `overlap`), answers of `answerMs`, `files` files in flight and `concurrency` requests in flight per file.
 */
export function runTiming(
  total: number,
  perFile: Readonly<Record<string, number>>,
  overlap: Readonly<Record<string, RequestOverlap>>,
  answerMs: number,
  files: number,
  concurrency: number,
): RunTiming {
  const floorMs = (total * answerMs) / Math.max(1, files * concurrency);
  let bound: RunTiming['bound'];
  for (const [file, o] of Object.entries(overlap)) {
    const requests = perFile[file] ?? 0;
    const inFlight = Math.max(1, o.inFlight);
    const ms = (requests * answerMs) / inFlight;
    if (!bound || ms > bound.ms) bound = { file, requests, inFlight, ms };
  }
  return { floorMs, bound };
}
