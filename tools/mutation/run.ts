/**
 * One conformance run of the mutation tooling: spawns `vitest run --project conformance`
 * as a child process in external-simulator mode (CORE_API_BASE_URL + CORE_API_CONTROL_URL, see
 * docs/control-api.md; or embedded mode when no URL is given, for benchmarks) and reads the run record (`conformance.json`) it writes into
 * its own report directory, so several runs can go on at once.
 *
 * Report directory: the clause reporter (helpers/report/vitest-reporter.ts) writes to
 * `CONFORMANCE_REPORT_DIR` when it honours that variable, else to `<cwd>/reports`. This module
 * sets the variable AND starts vitest with the run directory as its working directory (the
 * project stays the vitest root), so either way the record lands in `<runDir>/reports`. Only the
 * clause reporter runs (`--reporter` replaces the configured JUnit/Allure reporters, which would
 * otherwise write to the shared reports/ folder).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { RunRecord } from '../../helpers/report/model';
import { SPEC_PATH } from '../../helpers/spec/spec-doc';

/** Options of {@link runConformance}. */
export interface ConformanceRunOptions {
  /** Project root (where vitest.config.ts is). */
  projectRoot: string;
  /**
   * Public API base URL of the simulator under test, e.g. `http://127.0.0.1:40123`. Absent (with
   * `controlUrl`): embedded mode, the run's global setup starts its own simulator (benchmarks).
   */
  baseUrl?: string;
  /** Its control API URL (`…/__control`). */
  controlUrl?: string;
  /** Suite files relative to the project root (`suites/auth.test.ts`); empty = every suite. */
  files: string[];
  /** Directory this run owns (created; its `reports/` is emptied first). */
  runDir: string;
  /** Kill the run after this many ms (default 300 000). */
  timeoutMs?: number;
  /**
   * Suite files in flight (default: the configuration's, vitest.config.ts). Passed as
   * `CORE_API_FILE_WORKERS`: vitest's `--maxWorkers` does not reach the projects, which each
   * carry the configuration's count.
   */
  maxWorkers?: number;
  /** vitest `--testNamePattern` (a regular expression over the full test name); default: every test. */
  testNamePattern?: string;
  /** vitest `--bail`: stop after this many failed tests (default: never). */
  bail?: number;
  /** Extra environment for the run (e.g. `CORE_API_STRICT_TIMING: '1'`), applied last. */
  extraEnv?: Record<string, string>;
  /** Extra vitest arguments (e.g. `--sequence.shuffle`, `--sequence.seed=7`), before the files. */
  extraArgs?: string[];
  /** Node options for vitest's main process, before its script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
}

/** What one run produced. */
export interface ConformanceRunResult {
  /** The run record, with `tests[].file` made relative to the project root. */
  record: RunRecord;
  /** Wall time of the child process in ms. */
  wallMs: number;
  /** Exit code of vitest (1 when a test failed; that is expected under a fault). */
  exitCode: number | null;
  /** Path of the combined stdout/stderr log of the run. */
  logFile: string;
}

/** Thrown when a run produced no run record (vitest crashed, timed out, or found no tests). */
export class MutationRunError extends Error {
  constructor(
    message: string,
    readonly logFile: string,
  ) {
    super(message);
    this.name = 'MutationRunError';
  }
}

/**
 * Variables a nested conformance run must not inherit: the suite's own (a target, a report
 * folder, a baseline), and those of an outer vitest or test runner that would confuse the child.
 */
export const SUITE_VARS = /^(CORE_API_|CONFORMANCE_|VITEST|__VITEST|TINYPOOL)|^(NODE_OPTIONS|NODE_ENV|TEST)$/;

/**
 * The parent's environment without {@link SUITE_VARS}: what every nested run (mutation runs,
 * benchmarks, the integration tests' nested runs and pipeline rehearsals) starts from.
 */
export function suiteFreeEnv(): Record<string, string> {
  // A copy handed to a child, not a read of any variable (test/unit/env-reads.test.ts).
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (env[k] === undefined || SUITE_VARS.test(k)) delete env[k];
  return env as Record<string, string>;
}

/**
 * Environment for the child: {@link suiteFreeEnv}, plus the spec document's path (when the parent
 * finds it), the external-simulator variables, the report folder and `extraEnv`.
 */
export function childEnv(opts: Pick<ConformanceRunOptions, 'baseUrl' | 'controlUrl' | 'extraEnv'>, reportDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = suiteFreeEnv();
  // The child runs in its own folder, where the default spec location (beside the checkout) is
  // not found: it gets the path the parent resolved, so its reports carry the spec too.
  if (existsSync(SPEC_PATH)) env.CORE_API_SPEC = resolve(SPEC_PATH);
  if (opts.baseUrl) env.CORE_API_BASE_URL = opts.baseUrl;
  if (opts.controlUrl) env.CORE_API_CONTROL_URL = opts.controlUrl;
  env.CONFORMANCE_REPORT_DIR = reportDir;
  // The mutation run reads each child's run record only: no Allure results (~1 s of CPU per run).
  env.CONFORMANCE_ALLURE = '0';
  env.FORCE_COLOR = '0';
  env.NO_COLOR = '1';
  Object.assign(env, opts.extraEnv ?? {});
  return env;
}

/** Makes a record's file paths relative to the project root whatever cwd the reporter used. */
function normaliseFiles(record: RunRecord, runDir: string, projectRoot: string): RunRecord {
  const fix = (f: string) => {
    const abs = isAbsolute(f) ? f : resolve(runDir, f);
    const rel = relative(projectRoot, abs);
    return rel.startsWith('..') ? f : rel;
  };
  for (const t of record.tests) t.file = fix(t.file);
  const perFile: Record<string, number> = {};
  for (const [f, n] of Object.entries(record.requests?.perFile ?? {})) perFile[fix(f)] = n;
  if (record.requests) record.requests.perFile = perFile;
  if (record.requests?.overlap) record.requests.overlap = Object.fromEntries(Object.entries(record.requests.overlap).map(([f, o]) => [fix(f), o]));
  return record;
}

/**
 * Runs the conformance project once against an external simulator and returns its run record.
 * @throws MutationRunError when no `conformance.json` was written (crash, timeout, no tests).
 */
export async function runConformance(opts: ConformanceRunOptions): Promise<ConformanceRunResult> {
  const reportDir = join(opts.runDir, 'reports');
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const logFile = join(opts.runDir, 'vitest.log');
  const vitestBin = join(opts.projectRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [
    ...(opts.nodeArgs ?? []),
    vitestBin,
    'run',
    '--root',
    opts.projectRoot,
    '--config',
    join(opts.projectRoot, 'vitest.config.ts'),
    '--project',
    'conformance',
    '--reporter',
    join(opts.projectRoot, 'helpers', 'report', 'vitest-reporter.ts'),
    '--passWithNoTests',
  ];
  if (opts.testNamePattern) args.push('--testNamePattern', opts.testNamePattern);
  if (opts.bail) args.push('--bail', String(opts.bail));
  args.push(...(opts.extraArgs ?? []), ...opts.files);
  const started = Date.now();
  const chunks: Buffer[] = [];
  const exitCode = await new Promise<number | null>((done, fail) => {
    const env = childEnv(opts, reportDir);
    if (opts.maxWorkers) env.CORE_API_FILE_WORKERS = String(opts.maxWorkers);
    const child = spawn(process.execPath, args, { cwd: opts.runDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
  const wallMs = Date.now() - started;
  writeFileSync(logFile, Buffer.concat(chunks));
  const recordFile = join(reportDir, 'conformance.json');
  if (!existsSync(recordFile)) {
    const tail = Buffer.concat(chunks).toString('utf8').split('\n').slice(-15).join('\n');
    throw new MutationRunError(`conformance run wrote no conformance.json (exit ${exitCode}); log ${logFile}:\n${tail}`, logFile);
  }
  const record = normaliseFiles(JSON.parse(readFileSync(recordFile, 'utf8')) as RunRecord, opts.runDir, opts.projectRoot);
  return { record, wallMs, exitCode, logFile };
}
