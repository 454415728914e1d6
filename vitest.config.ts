/**
 * Five projects share one run (`npm test`; `npm run test:quick` runs `unit` and `conformance`):
 * - `unit`: the project's own in-process tests (type check, helpers, schemas, simulator, report writers);
 * - `probes`: the simulator's fault probes (each fault changes what its probe observes);
 * - `tooling`: the project's own tests that start other programs (child vitest runs, browsers, linters, ESLint and Prettier);
 * - `integration`: checks of the suite as a whole (pipeline rehearsal, live mode, chaos, reaching a target);
 * - `conformance`: the suites, run against the target the environment chooses
 *   (embedded simulator by default; see helpers/target/target.ts and docs/control-api.md).
 *
 * Reporters: the console, JUnit (reports/junit.xml), Allure (reports/allure-results) and our own
 * clause reporter (reports/conformance.json/.md/.html), which also prints the closing line
 * `conformance: N passed, N failed, N skipped`.
 */
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.ts';
import { moduleCacheSafe } from './test/support/module-cache.ts';
import { vitestTimeoutMs } from './helpers/base/deadline.ts';
import { onLoopback, REMOTE_FILE_WORKERS } from './helpers/target/target.ts';
import { exitOnBadEnv, readEnv } from './helpers/base/env.ts';

// A variable set to a value its kind does not accept stops the run here, exit status 2, one line each (helpers/base/env.ts).
exitOnBadEnv();

/** Where run output goes: `reports/` unless CONFORMANCE_REPORT_DIR names another folder (shards, nested runs). */
const reportDir = readEnv('CONFORMANCE_REPORT_DIR');
// Allure keeps every result file it ever wrote; a run's results are its own.
rmSync(`${reportDir}/allure-results`, { recursive: true, force: true });

/**
 * Worker count: suite files in flight, `CORE_API_FILE_WORKERS`. The suite waits more than it
 * computes (the network, webhook retry delays, insight delays), so against a remote target the
 * count does not follow the core count: 8 when CORE_API_BASE_URL names another host (an external
 * simulator or a live tenant elsewhere). A target on this machine (the embedded simulator, or one
 * on a loopback address) shares its cores with the suite: one worker per core, at most 4
 * (measured in docs/benchmarks.md).
 */
const baseUrl = readEnv('CORE_API_BASE_URL');
const remoteTarget = baseUrl !== undefined && !onLoopback(baseUrl);
const maxWorkers = readEnv('CORE_API_FILE_WORKERS') ?? (remoteTarget ? REMOTE_FILE_WORKERS : Math.min(4, availableParallelism()));
/** Tests of one `describe.concurrent` block in flight together: CORE_API_CONCURRENCY (helpers/world/concurrency.ts). */
const maxConcurrency = readEnv('CORE_API_CONCURRENCY');

/**
 * Allure results are for the reports people open; `CONFORMANCE_ALLURE=0` leaves them out (the inner
 * loop, `npm run test:quick`): the writer syncs every result file to disk, which stalls the run's
 * main process, where the embedded simulator answers.
 */
const allureReporter: [string, { resultsDir: string }][] =
  readEnv('CONFORMANCE_ALLURE') === false ? [] : [['allure-vitest/reporter', { resultsDir: `${reportDir}/allure-results` }]];

/**
 * The projects the command line names with `--project <name>` (every one when it names none, or a
 * name that is not one of ours exactly, such as a pattern): vitest sets up every project it is given
 * before it filters them, ~0.2 s of CPU each, which the ~28 nested runs of `npm test` (all
 * `--project conformance`) would pay four times over.
 */
function namedOnTheCommandLine(projects: TestProjectInlineConfiguration[]): TestProjectInlineConfiguration[] {
  const named = parseArgs({ args: process.argv.slice(2), options: { project: { type: 'string', multiple: true } }, strict: false }).values.project ?? [];
  const nameOf = (p: TestProjectInlineConfiguration) => (typeof p.test?.name === 'string' ? p.test.name : undefined);
  const known = new Set(projects.map(nameOf));
  return named.length && named.every((n) => typeof n === 'string' && known.has(n)) ? projects.filter((p) => named.includes(nameOf(p)!)) : projects;
}

/** The project's own tests write their scratch folders under one root per run, removed at its end (test/support/scratch.ts). */
const SCRATCH_SETUP = './test/support/scratch-setup.ts';

export default defineConfig({
  test: {
    maxWorkers,
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache), when
    // the installed vitest is mended for it (test/support/module-cache.ts).
    experimental: { fsModuleCache: moduleCacheSafe() },
    // The longest files start first (a fresh clone has no durations for vitest to order by).
    sequence: { sequencer: LongestFirstSequencer },
    reporters: [
      'default',
      ['junit', { outputFile: `${reportDir}/junit.xml`, suiteName: 'core-api-conformance' }],
      ...allureReporter,
      './helpers/report/vitest-reporter.ts',
    ],
    projects: namedOnTheCommandLine([
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'simulator/test/**/*.test.ts'],
          exclude: ['simulator/test/faults/**'],
          globalSetup: [SCRATCH_SETUP],
          setupFiles: ['allure-vitest/setup'],
          // Test files share no module state they rely on, so a worker reuses loaded modules
          // between files (importing dominated the project's time otherwise).
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // The fault catalogue's probes: with each fault on, its probe observes another answer than
          // the spec's (a fresh world per probe, by a control reset of the area's one simulator; docs/mutation.md). One probe file per area of
          // the catalogue (simulator/test/faults/<area>.test.ts, beside simulator/src/faults/<area>.ts).
          name: 'probes',
          include: ['simulator/test/faults/*.test.ts'],
          globalSetup: [SCRATCH_SETUP],
          setupFiles: ['allure-vitest/setup'],
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // The project's own tests that start other programs: child vitest runs (catalogue listing,
          // the small mutation run, the spec-absent run), browsers, OpenAPI linters, report tools.
          name: 'tooling',
          include: ['test/tooling/**/*.test.ts'],
          globalSetup: [SCRATCH_SETUP, './test/support/browser-setup.ts'],
          setupFiles: ['allure-vitest/setup'],
          isolate: false,
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Checks of the suite as a whole: nested conformance runs in live mode, under chaos, secret scans.
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: [SCRATCH_SETUP, './test/support/browser-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 60_000,
          // Files run beside each other and beside the other projects: each owns its simulators,
          // ports and report folders, and run one after the other they were the run's long pole.
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['./helpers/run/global-setup.ts'],
          // File workers are threads of one process, not processes of their own: a child process
          // costs its own heap, page faults and start-up, about 1 s of CPU each (issue 43: the run at
          // 80 ms per answer took 42.5 s of CPU in vitest and its workers as processes, 35.1 s as
          // threads, docs/benchmarks.md). The suites share nothing through the process: no file
          // sets `process.env`, changes directory or exits.
          pool: 'threads',
          // Files share nothing through module state (each provisions its own world), so workers
          // may reuse loaded modules between files: start-up dominates a run otherwise.
          isolate: false,
          maxConcurrency,
          setupFiles: ['allure-vitest/setup'],
          // Derived from the request deadline (helpers/base/deadline.ts, CORE_API_REQUEST_TIMEOUT_MS): a
          // test or hook outlives every request it waits for, so a slow target reads as `error`
          // naming the request, never as vitest's bare timeout.
          testTimeout: vitestTimeoutMs(),
          hookTimeout: vitestTimeoutMs(),
        },
      },
    ]),
  },
});
