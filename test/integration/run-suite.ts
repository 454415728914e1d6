/**
 * Runs the conformance project in a child vitest process with its own environment and report
 * folder, for checks of the suite as a whole (live mode, chaos, secret scans, shards).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
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

/** A simulator of the test file's own, for nested runs: the target's variables and its control config. */
export interface NestedTarget {
  /** CORE_API_BASE_URL and CORE_API_CONTROL_URL of the simulator, for {@link runConformance}'s `env`. */
  env(): Record<string, string>;
  /**
   * PUT /__control/config with `body` (docs/control-api.md), e.g. `{ chaos: … }` or `{ chaos: null }`.
   * @throws Error when the control API answers other than 200
   */
  config(body: unknown): Promise<void>;
}

/**
 * Starts a simulator on 127.0.0.1 before the file's tests and closes it after them (vitest's
 * `beforeAll`/`afterAll`, so call it at the top level of a test file), for rehearsals that run the
 * suite against a target set up in a stated way (chaos, a late runner).
 */
export function nestedTarget(): NestedTarget {
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const started = (): RunningSimulator => {
    if (!sim) throw new Error('nestedTarget: the simulator starts in beforeAll; use it inside a test');
    return sim;
  };
  return {
    env: () => ({ CORE_API_BASE_URL: started().baseUrl, CORE_API_CONTROL_URL: started().controlUrl }),
    config: async (body) => {
      const res = await request(`${started().controlUrl}/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`config answered ${res.statusCode}`);
    },
  };
}
