/**
 * Runs the conformance project in a child vitest process with its own environment and report
 * folder, for checks of the suite as a whole (live mode, chaos, secret scans, shards).
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunRecord } from '../../helpers/report/model';
import { suiteFreeEnv } from '../../tools/mutation/run';
import { scratchDir } from '../support/scratch';

/** Outcome of one nested run. `record` is undefined when the reporter wrote no conformance.json. */
export interface NestedRun {
  code: number;
  output: string;
  wallMs: number;
  reportDir: string;
  record?: RunRecord;
}

/**
 * Runs `vitest run --project conformance [files…]` with `env` (on top of a cleaned copy of
 * process.env) and a fresh report folder. Resolves when the child exits; never rejects on a failing run.
 * The run writes no Allure results (`CONFORMANCE_ALLURE=0`: ~1 s of CPU per whole-suite run, most
 * of it syncing each result file to disk) unless `env` sets `CONFORMANCE_ALLURE` to `1`, as a check
 * that reads or scans the Allure results must. It runs one suite file at a time
 * (`CORE_API_FILE_WORKERS=1`) unless `env` says otherwise: a nested run is one process among the
 * many of `npm test` on a busy machine, where a second worker adds no speed and costs ~1.3 s of CPU
 * importing the suite's modules again (docs/benchmarks.md).
 */
export async function runConformance(env: Record<string, string>, files: string[] = []): Promise<NestedRun> {
  const reportDir = scratchDir('conformance-nested-');
  const base = suiteFreeEnv();
  const vitest = resolve('node_modules/vitest/vitest.mjs');
  const started = performance.now();
  const child = spawn(process.execPath, [vitest, 'run', '--project', 'conformance', ...files], {
    cwd: resolve('.'),
    env: { ...base, CONFORMANCE_ALLURE: '0', CORE_API_FILE_WORKERS: '1', ...env, CONFORMANCE_REPORT_DIR: reportDir, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code: number = await new Promise((r) => child.on('close', (c) => r(c ?? 1)));
  const wallMs = performance.now() - started;
  let record: RunRecord | undefined;
  try {
    record = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8'));
  } catch {
    record = undefined;
  }
  return { code, output, wallMs, reportDir, record };
}

/**
 * The tests of a run that a "no fail, no error" rehearsal judges, and the ones it leaves aside:
 * `runnersOwn`, the `error` verdicts whose evidence the runner's own clock spoilt (helpers/live/own-side.ts
 * `late-runner` and `window`: a loaded machine delayed the suite's timers, so a timing check could
 * not judge the target; helpers/base/lateness.ts). Those judge the runner, not the target's reading of
 * the spec; every other `error`, and every `fail`, is in `bad`. Undefined record: both empty.
 */
export function verdictTrouble(record: RunRecord | undefined): { bad: RunRecord['tests']; runnersOwn: RunRecord['tests'] } {
  const tests = record?.tests ?? [];
  const own = (t: RunRecord['tests'][number]) => t.status === 'error' && (t.ownSide === 'late-runner' || t.ownSide === 'window');
  return { bad: tests.filter((t) => (t.status === 'fail' || t.status === 'error') && !own(t)), runnersOwn: tests.filter(own) };
}

/** Every file below a folder, recursively (absolute paths). */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesBelow(p));
    else out.push(p);
  }
  return out;
}
