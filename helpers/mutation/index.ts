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
 * closest tests (helpers/mutation/matrix.ts `closestTests`: whose own name carries a clause the
 * fault breaks) run first on their own. When a first failure is a kill, the fault is killed and
 * the report lists that first killer; when the selection yields a failure that is no kill (naming
 * none of its clauses, or failing in the baseline too), it is run again to the end, so the verdict is the
 * same as an exhaustive run's. `firstKill: false` always runs the selection to the end.
 */
import { loadStatementLinks, wayProofs } from '../report/statements';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { loadCatalogue, type Clause } from '../catalogue';
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
} from './matrix';
import { runConformance } from './run';
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

  let faults: Fault[] = await listFaults();
  if (opts.faults?.length) {
    const unknown = opts.faults.filter((n) => !faults.some((f) => f.name === n));
    if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')} (GET /__control/faults lists ${faults.length})`);
    faults = faults.filter((f) => opts.faults!.includes(f.name));
  }
  log(`mutation: ${faults.length} fault(s), ${workers} worker(s), selection ${selection}`);

  rmSync(opts.runsDir, { recursive: true, force: true });
  const runOnce = async (
    name: string,
    faultNames: string[],
    files: string[],
    extra: { testNamePattern?: string; bail?: number; extraEnv?: Record<string, string> } = {},
  ) => {
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

  const base = await runOnce('_baseline', [], opts.files ?? []);
  const baseline = base.record;
  const baselineFailing = failingKeys(baseline);
  const allFiles = [...new Set([...baseline.tests.map((t) => t.file), ...(opts.files ?? [])])].sort();
  log(`baseline: ${baseline.summary.total} tests in ${allFiles.length} file(s), ${baselineFailing.size} failing, ${(base.wallMs / 1000).toFixed(1)} s`);

  const results: FaultResult[] = await pool(faults, workers, async (fault) => {
    const pick = selection === 'full' ? { files: allFiles, names: [], wholeFiles: true } : testsForFault(baseline, fault);
    const files = pick.files;
    if (files.length === 0) {
      const r = unreachableFault(fault, (id) => catalogue.has(id));
      log(`  ${fault.name}: survived (nothing to run: ${r.note})`);
      return r;
    }
    const strict = (opts.strictTimingForTimingFaults ?? true) && isTimingFault(fault) ? { CORE_API_STRICT_TIMING: '1' } : undefined;
    const testNamePattern = pick.wholeFiles ? undefined : namePattern(pick.names);
    const t0 = Date.now();
    try {
      let r: FaultResult | undefined;
      let stoppedEarly = false;
      // First kill: the closest tests first, stopping at the first failure.
      const near = firstKill && selection === 'targeted' ? closestTests(baseline, fault, pick) : undefined;
      if (near) {
        const run = await runOnce(fault.name, [fault.name], near.files, {
          testNamePattern: near.wholeFiles ? undefined : namePattern(near.names),
          bail: 1,
          extraEnv: strict,
        });
        const first = judgeFault(fault, run.record, baselineFailing, near.files, run.wallMs);
        if (first.verdict === 'killed') [r, stoppedEarly] = [first, true];
      }
      if (!r && firstKill) {
        const run = await runOnce(fault.name, [fault.name], files, { testNamePattern, bail: 1, extraEnv: strict });
        const all = judgeFault(fault, run.record, baselineFailing, files, run.wallMs);
        // A bailed run is trusted only for a kill: with concurrent tests, --bail can cancel the run
        // before the failing test's result is recorded, so "nothing failed" is confirmed below by a
        // run to the end.
        if (all.verdict === 'killed') [r, stoppedEarly] = [all, true];
      }
      if (!r) {
        // Exhaustive, or the first failure was no kill: run to the end so the verdict is exact.
        const run = await runOnce(fault.name, [fault.name], files, { testNamePattern, extraEnv: strict });
        r = judgeFault(fault, run.record, baselineFailing, files, run.wallMs);
      }
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
  });

  const report: MutationReport = {
    schemaVersion: 1,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date().toISOString(),
    wallMs: Date.now() - started,
    workers,
    selection,
    firstKill,
    baseline: {
      wallMs: base.wallMs,
      summary: baseline.summary,
      failing: baseline.tests.filter((t) => t.status === 'fail' || t.status === 'error').map((t) => ({ name: t.name, file: t.file })),
    },
    totals: totals(results),
    faults: results,
    suites: tallySuites(results, allFiles),
  };
  try {
    report.ways = wayProofs(loadStatementLinks(), results);
  } catch {
    // The links file is unreadable: the matrix stands without the ways (the unit test reports it).
  }
  return report;
}
