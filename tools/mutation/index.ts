/**
 * The mutation run: lists the simulator's fault catalogue, runs the conformance
 * suite once with no fault (the baseline) and once per fault with only that fault switched on,
 * up to `workers` runs at a time (each against its own fresh in-process simulator, each writing
 * its reports into its own directory), and builds the kill matrix.
 *
 * Selection (docs/mutation.md): by default a fault runs only the tests that name a clause it
 * breaks in the baseline run (in their name or in a check), in the files holding them. Under the
 * kill rule no other test can kill it, so this loses no kill; it only leaves out collateral
 * failures elsewhere. `selection: 'full'` runs every file for every fault.
 *
 * First kill (default on): a fault's run stops at its first failing test (`--bail 1`), and the
 * closest tests (tools/mutation/matrix.ts `closestTests`: whose own name carries a clause the
 * fault breaks) run first on their own. When a first failure is a kill, the fault is killed and
 * the report lists that first killer; when the selection yields a failure that is no kill (naming
 * none of its clauses, or failing in the baseline too), it is run again to the end, so the verdict is the
 * same as an exhaustive run's. `firstKill: false` always runs the selection to the end.
 */
import { loadStatementLinks, wayProofs } from '../../helpers/report/statements';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { loadCatalogue, type Clause } from '../../helpers/spec/catalogue';
import type { Fault } from './fault';
import {
  erroredFault,
  failingKeys,
  closestTests,
  judgeFault,
  namePattern,
  testsForFault,
  tallySuites,
  totals,
  unreachableFault,
  type FaultResult,
  type MutationReport,
  type TestSelection,
} from './matrix';
import { runConformance, type ConformanceRunResult } from './run';
import type { RunRecord } from '../../helpers/report/model';
import { listFaults, startFaultySimulator } from './simulator';

export { closingLine } from './matrix';
export { writeMutationReports } from './render';

/** Options of {@link runMutation}. */
export interface MutationOptions {
  /** Project root (vitest.config.ts, suites/). */
  projectRoot: string;
  /** Directory for the per-run folders (`<dir>/<fault>/reports/conformance.json`, `vitest.log`). */
  runsDir: string;
  /** Only these faults (names); unknown names throw. Default: the whole catalogue. */
  faults?: string[];
  /** Only these suite files (relative paths). Default: every suite. */
  files?: string[];
  /** Runs at once (default: the core count, at least 1). */
  workers?: number;
  /** `targeted` (default) or `full`; see the module header. */
  selection?: 'targeted' | 'full';
  /** Stop each run at its first failure (default true); see the module header. */
  firstKill?: boolean;
  /**
   * Extra environment for every run, baseline included; e.g. `CORE_API_STRICT_TIMING=1` turns the
   * informational timing comparison (§5.7) into a failing check, so timing faults can be killed.
   */
  env?: Record<string, string>;
  /** Per-run time limit in ms (default 300 000). */
  runTimeoutMs?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /**
   * Timing faults (name or clause ids mentioning timing or slowness) run with
   * `CORE_API_STRICT_TIMING=1`, so the suite's informational timing comparison (§5.7) can kill
   * them (default true). Other faults' runs keep timing informational, so timing noise cannot
   * kill them.
   */
  strictTimingForTimingFaults?: boolean;
}

/** Whether a fault is about response timing (its name or clause ids mention timing or slowness). */
export function isTimingFault(fault: Fault): boolean {
  return [fault.name, ...fault.clauses].some((s) => /timing|slow|latency/i.test(s));
}

/** Runs `jobs` with at most `limit` at once, keeping result order. */
async function pool<T, R>(items: T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await job(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

function safeDirName(name: string): string {
  return name.replace(/[^a-zA-Z0-9._-]/g, '_');
}

/** One conformance run against a fresh simulator with `faultNames` on, into `<runsDir>/<name>/`. */
type RunOnce = (
  name: string,
  faultNames: string[],
  files: string[],
  extra?: { testNamePattern?: string; bail?: number; extraEnv?: Record<string, string> },
) => Promise<ConformanceRunResult>;

/** What every fault's runs share: the options, the runner, and the baseline run's record and failing tests. */
interface MutationContext {
  opts: MutationOptions;
  log: (line: string) => void;
  selection: 'targeted' | 'full';
  firstKill: boolean;
  runOnce: RunOnce;
  baseline: RunRecord;
  baselineFailing: ReturnType<typeof failingKeys>;
  /** Every suite file of the baseline (and those the options name), sorted. */
  allFiles: string[];
  catalogue: Map<string, Clause>;
}

/**
 * The catalogue's faults, or only those `names` lists.
 * @throws Error naming each requested fault the catalogue does not hold.
 */
async function selectFaults(names: string[] | undefined): Promise<Fault[]> {
  const faults: Fault[] = await listFaults();
  if (!names?.length) return faults;
  const unknown = names.filter((n) => !faults.some((f) => f.name === n));
  if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')} (GET /__control/faults lists ${faults.length})`);
  return faults.filter((f) => names.includes(f.name));
}

/** The runner of {@link RunOnce}: starts a simulator with the faults on, runs the suite against it, closes it. */
function runnerFor(opts: MutationOptions): RunOnce {
  return async (name, faultNames, files, extra = {}) => {
    const sim = await startFaultySimulator(faultNames);
    try {
      return await runConformance({
        projectRoot: opts.projectRoot,
        baseUrl: sim.baseUrl,
        controlUrl: sim.controlUrl,
        files,
        runDir: join(opts.runsDir, safeDirName(name)),
        timeoutMs: opts.runTimeoutMs,
        ...extra,
        extraEnv: { ...(opts.env ?? {}), ...(extra.extraEnv ?? {}) },
      });
    } finally {
      await sim.close();
    }
  };
}

/**
 * A fault's verdict from its runs: under first kill, the closest tests then the whole selection
 * stop at their first failure and are trusted only for a kill; otherwise (or when no kill came)
 * the selection runs to the end, so the verdict is exact.
 */
async function faultVerdict(
  ctx: MutationContext,
  fault: Fault,
  pick: TestSelection,
  strict: Record<string, string> | undefined,
): Promise<{ result: FaultResult; stoppedEarly: boolean }> {
  const { files } = pick;
  const testNamePattern = pick.wholeFiles ? undefined : namePattern(pick.names);
  // First kill: the closest tests first, stopping at the first failure.
  const near = ctx.firstKill && ctx.selection === 'targeted' ? closestTests(ctx.baseline, fault, pick) : undefined;
  if (near) {
    const run = await ctx.runOnce(fault.name, [fault.name], near.files, {
      testNamePattern: near.wholeFiles ? undefined : namePattern(near.names),
      bail: 1,
      extraEnv: strict,
    });
    const first = judgeFault(fault, run.record, ctx.baselineFailing, near.files, run.wallMs);
    if (first.verdict === 'killed') return { result: first, stoppedEarly: true };
  }
  if (ctx.firstKill) {
    const run = await ctx.runOnce(fault.name, [fault.name], files, { testNamePattern, bail: 1, extraEnv: strict });
    const all = judgeFault(fault, run.record, ctx.baselineFailing, files, run.wallMs);
    // A bailed run is trusted only for a kill: with concurrent tests, --bail can cancel the run
    // before the failing test's result is recorded, so "nothing failed" is confirmed below by a
    // run to the end.
    if (all.verdict === 'killed') return { result: all, stoppedEarly: true };
  }
  // Exhaustive, or the first failure was no kill: run to the end so the verdict is exact.
  const run = await ctx.runOnce(fault.name, [fault.name], files, { testNamePattern, extraEnv: strict });
  return { result: judgeFault(fault, run.record, ctx.baselineFailing, files, run.wallMs), stoppedEarly: false };
}

/** One fault's result: its selection, its runs (timing faults under strict timing), and a progress line. A run that breaks is an `error` verdict. */
async function judgeOneFault(ctx: MutationContext, fault: Fault): Promise<FaultResult> {
  const { opts, log } = ctx;
  const pick = ctx.selection === 'full' ? { files: ctx.allFiles, names: [], wholeFiles: true } : testsForFault(ctx.baseline, fault);
  const files = pick.files;
  if (files.length === 0) {
    const r = unreachableFault(fault, (id) => ctx.catalogue.has(id));
    log(`  ${fault.name}: survived (nothing to run: ${r.note})`);
    return r;
  }
  const strict = (opts.strictTimingForTimingFaults ?? true) && isTimingFault(fault) ? { CORE_API_STRICT_TIMING: '1' } : undefined;
  const t0 = Date.now();
  try {
    const { result: r, stoppedEarly } = await faultVerdict(ctx, fault, pick, strict);
    r.wallMs = Date.now() - t0;
    r.stoppedEarly = stoppedEarly;
    if (!pick.wholeFiles) r.selectedTests = pick.names.length;
    log(
      `  ${fault.name}: ${r.verdict}${r.verdict === 'killed' ? ` by ${r.killedBy.length}${stoppedEarly ? '+' : ''} test(s)` : ''} ` +
        `(${pick.wholeFiles ? 'whole files' : `${pick.names.length} tests`} in ${files.length} file(s), ${(r.wallMs / 1000).toFixed(1)} s)`,
    );
    return r;
  } catch (e) {
    log(`  ${fault.name}: run error: ${(e as Error).message.split('\n')[0]}`);
    return erroredFault(fault, files, (e as Error).message, Date.now() - t0);
  }
}

/** The kill matrix from the baseline and the faults' results, with the statement ways they prove when the links file reads. */
function mutationReport(ctx: MutationContext, started: number, workers: number, baseWallMs: number, results: FaultResult[]): MutationReport {
  const { baseline } = ctx;
  const report: MutationReport = {
    schemaVersion: 1,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    wallMs: Date.now() - started,
    workers,
    selection: ctx.selection,
    firstKill: ctx.firstKill,
    baseline: {
      wallMs: baseWallMs,
      summary: baseline.summary,
      failing: baseline.tests.filter((t) => t.status === 'fail' || t.status === 'error').map((t) => ({ name: t.name, file: t.file })),
    },
    totals: totals(results),
    faults: results,
    suites: tallySuites(results, ctx.allFiles),
  };
  try {
    report.ways = wayProofs(loadStatementLinks(), results);
  } catch {
    // The links file is unreadable: the matrix stands without the ways (the unit test reports it).
  }
  return report;
}

/**
 * Runs the whole mutation run and returns the kill matrix (reports are written by the caller
 * with `writeMutationReports`).
 * @throws Error when the fault list cannot be read, a requested fault is unknown, or the
 *   baseline run breaks (then no verdict would mean anything).
 */
export async function runMutation(opts: MutationOptions): Promise<MutationReport> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const workers = opts.workers ?? Math.max(1, availableParallelism());
  const selection = opts.selection ?? 'targeted';
  const firstKill = opts.firstKill ?? true;
  const catalogue: Map<string, Clause> = loadCatalogue();
  const faults = await selectFaults(opts.faults);
  log(`mutation: ${faults.length} fault(s), ${workers} worker(s), selection ${selection}`);

  rmSync(opts.runsDir, { recursive: true, force: true });
  const runOnce = runnerFor(opts);
  const base = await runOnce('_baseline', [], opts.files ?? []);
  const baseline = base.record;
  const baselineFailing = failingKeys(baseline);
  const allFiles = [...new Set([...baseline.tests.map((t) => t.file), ...(opts.files ?? [])])].sort();
  log(`baseline: ${baseline.summary.total} tests in ${allFiles.length} file(s), ${baselineFailing.size} failing, ${(base.wallMs / 1000).toFixed(1)} s`);

  const ctx: MutationContext = { opts, log, selection, firstKill, runOnce, baseline, baselineFailing, allFiles, catalogue };
  const results: FaultResult[] = await pool(faults, workers, (fault) => judgeOneFault(ctx, fault));
  return mutationReport(ctx, started, workers, base.wallMs, results);
}
