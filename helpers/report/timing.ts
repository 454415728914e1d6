/**
 * Where a run's wall time went, for the reports (issue 43): the model conformance.md and
 * conformance.html render "Where the time went" from, built on helpers/report/overlap.ts from a run
 * record of format 1.18 (its answer times).
 */
import { seconds } from '../base/values';
import type { RunRecord } from './model';
import { filesAtOnce, runTiming, type AnswerTimes, type RunTiming } from './overlap';

/** One file among the longest chains of {@link TimingSummary}: its requests, chain (and × the median answer, ms), most in flight, and span in the run (ms). */
export interface ChainRow {
  file: string;
  requests: number;
  chain: number;
  chainMs: number;
  inFlight: number;
  firstMs?: number;
  lastMs?: number;
  /** Where the file sat in the run: `4.3 s – 14.7 s`, or '' without times. */
  span: string;
}

/** Where a run's wall time went, for the reports (issue 43); times in ms. */
export interface TimingSummary extends RunTiming {
  wallMs: number;
  answerMs: AnswerTimes;
  files: number;
  concurrency: number;
  /** The eight files with the longest chains of requests one after another, the longest first. */
  longest: ChainRow[];
}

/**
 * The {@link TimingSummary} of a run record: its floor at the median answer (every request × that
 * time over the files that may be in flight at once, {@link filesAtOnce}, × `CORE_API_CONCURRENCY`), the file that needs longest at the most it
 * had in flight, and the longest chains. Undefined for a record without answer times (before 1.18).
 */
export function timingSummary(run: RunRecord): TimingSummary | undefined {
  const { answerMs, overlap, concurrency } = run.requests;
  if (!answerMs || !overlap || !concurrency) return undefined;
  const files = filesAtOnce(run.requests.fileWorkers, overlap, run.requests.perFile);
  const longest = Object.entries(overlap)
    .sort((a, b) => b[1].chain - a[1].chain)
    .slice(0, 8)
    .map(([file, o]) => ({
      file,
      requests: run.requests.perFile[file] ?? 0,
      chain: o.chain,
      chainMs: o.chain * answerMs.medianMs,
      inFlight: o.inFlight,
      firstMs: o.firstMs,
      lastMs: o.lastMs,
      span: o.firstMs !== undefined && o.lastMs !== undefined ? `${seconds(o.firstMs)} – ${seconds(o.lastMs)}` : '',
    }));
  return {
    ...runTiming(run.requests.total, run.requests.perFile, overlap, answerMs.medianMs, files, concurrency),
    wallMs: Date.parse(run.finishedAt) - Date.parse(run.startedAt),
    answerMs,
    files,
    concurrency,
    longest,
  };
}

/** The sentences of {@link timingSummary}: the wall time and the median answer, the floor, and the bounding file. */
export function timingSentences(run: RunRecord, t: TimingSummary): string[] {
  const median = t.answerMs.medianMs;
  const out = [
    `The run took ${seconds(t.wallMs)} for ${run.requests.total} requests; the median answer took ${median} ms (90% within ${t.answerMs.p90Ms} ms).`,
    `Its floor at that answer time: ${run.requests.total} requests × ${median} ms ÷ (${t.files} files at once × ${t.concurrency} in flight) = ${seconds(t.floorMs)}` +
      (t.floorMs > 0 ? `; the run took ${(t.wallMs / t.floorMs).toFixed(1)}× it.` : '.'),
  ];
  if (t.bound)
    out.push(
      `The file that needs longest at the most it had in flight: ${t.bound.file}, ${t.bound.requests} requests × ${median} ms ÷ ${t.bound.inFlight} = ${seconds(t.bound.ms)}: no run ends sooner unless it sends more at once.`,
    );
  return out;
}
