/**
 * `npm run bench [-- --runs N] [--latency MS] [--live] [--workers N] [--cpu-prof D] [suite files…]`: wall time of the full conformance run (or of the files named), as
 * `npm run conformance` does it (vitest start-up and simulator start-up included), with the
 * requests per second (the run record's `requests.total`: requests the suite's client sent to the
 * public API; control-API calls are not counted), and per suite file its requests, the longest
 * chain of requests sent one after another, the most in flight at once, and when its first request
 * was sent and its last answer ended (the run record's `requests.overlap`, helpers/report/overlap.ts).
 *
 * - Without `--latency`: against the embedded simulator (the suite's global setup starts it).
 * - With `--latency MS`: against an external simulator started here whose every public answer is
 *   delayed by MS ms (the simulator's chaos `delayMs`, control config; no 429s, no resets), as a
 *   target in another region would be; the run gets the file workers a remote target gets
 *   ({@link REMOTE_FILE_WORKERS}), not the loopback address's one per core. Also prints the serial
 *   cost (every request × MS), the floor (serial cost over the requests that may be in flight:
 *   files × `CORE_API_CONCURRENCY`), each file's chain × MS, below which it cannot finish, and the
 *   file whose requests need longest at the most it had in flight (helpers/report/overlap.ts `runTiming`).
 *
 * - With `--live`: the same simulator as a live tenant (no control URL; the operator's variables made
 *   through its control API, nothing optional on, {@link liveEnv}), as a nightly against staging;
 *   `CORE_API_LIVE_POOL=8 npm run bench -- --live …` measures an operator who lets the pooled files keep
 *   eight assistants per lane.
 *
 * The run settings of this process's environment (the `run` group of helpers/base/env-vars.ts:
 * `CORE_API_VALUE_SPACE_DEPTH`, `CORE_API_GENERATIVE_DEPTH`, the seeds, `CORE_API_CONCURRENCY`, …) are
 * handed to every run, so `CORE_API_VALUE_SPACE_DEPTH=1 npm run bench` measures that depth (a nested
 * run starts from an environment without the suite's variables, tools/mutation/run.ts `suiteFreeEnv`).
 *
 * `--cpu-prof D` writes CPU profiles of vitest's main process and of every file worker to folder D
 * (read them with `npx tsx bench/cpu-profile.ts --areas D`); with `--latency` or `--live` the
 * simulator answers in this process, which is not profiled.
 *
 * `--workers N` sets the suite files in flight (`CORE_API_FILE_WORKERS`; default: the configuration's,
 * vitest.config.ts, or {@link REMOTE_FILE_WORKERS} with `--latency`).
 *
 * Every run also prints its CPU time (vitest with its workers, and the simulator when it answers in
 * this process) and that time over the machine's cores, the wall time's floor when CPU bounds it.
 *
 * Each run writes its reports to `reports/bench/run-<n>/` so the normal reports/ are left alone.
 * Kept out of the test run. Figures measured on the project machine: docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { runConformance, type ConformanceRunResult } from '../tools/mutation/run';
import { ControlClient } from '../helpers/target/control';
import { REMOTE_FILE_WORKERS } from '../helpers/target/target';
import { filesAtOnce, runTiming } from '../helpers/report/overlap';
import { concurrency } from '../helpers/world/concurrency';
import { isEnvSet, readEnv } from '../helpers/base/env';
import { envEntries } from '../helpers/base/env-vars';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '1' },
    latency: { type: 'string', default: '0' },
    workers: { type: 'string' },
    live: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs) || 1);
const latencyMs = Math.max(0, Number(values.latency) || 0);
const live = values.live === true;
const profDir = values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined;
const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
const workers = values.workers ? Math.max(1, Number(values.workers) || 1) : latencyMs > 0 || live ? REMOTE_FILE_WORKERS : undefined;

/** The suite file with the largest sum of test wall times (tests inside a file run one after the other). */
function longestFile(r: ConformanceRunResult): { file: string; ms: number; requests: number } {
  const perFile = new Map<string, number>();
  for (const t of r.record.tests) perFile.set(t.file, (perFile.get(t.file) ?? 0) + t.durationMs);
  let best = { file: '-', ms: 0, requests: 0 };
  for (const [file, ms] of perFile) if (ms > best.ms) best = { file, ms, requests: r.record.requests.perFile[file] ?? 0 };
  return best;
}

/** One line per suite file, the longest chain first: requests, the longest chain one after another (× the latency), the most in flight. */
function overlapLines(r: ConformanceRunResult): string[] {
  const overlap = r.record.requests.overlap ?? {};
  return Object.entries(overlap)
    .sort((a, b) => b[1].chain - a[1].chain)
    .map(([file, o]) => {
      const floor = latencyMs ? ` (${((o.chain * latencyMs) / 1000).toFixed(1)} s at ${latencyMs} ms)` : '';
      const place =
        o.firstMs !== undefined && o.lastMs !== undefined
          ? `, requests from ${(o.firstMs / 1000).toFixed(1)} s to ${(o.lastMs / 1000).toFixed(1)} s of the run`
          : '';
      return `  ${file}: ${r.record.requests.perFile[file] ?? 0} requests, longest chain one after another ${o.chain}${floor}, most in flight ${o.inFlight}${place}`;
    });
}

/**
 * The operator's variables of a live-tenant run against the simulator behind `controlUrl`
 * (docs/live-tenants.md): organization O with tenants A and B, a tenant of another organization,
 * a rotated-away key and A's client server secret, made through the control API. Nothing optional
 * is turned on (no tunnel, trigger, wildcard DNS or opt-in), as a first nightly against staging.
 */
async function liveEnv(baseUrl: string, controlUrl: string): Promise<Record<string, string>> {
  const control = new ControlClient(controlUrl);
  const org = await control.organization('bench-live-O');
  const a = await control.tenant(org.id, 'A');
  const b = await control.tenant(org.id, 'B');
  const f = await control.tenant((await control.organization('bench-live-P')).id, 'F');
  const rotated = a.apiKey;
  return {
    CORE_API_BASE_URL: baseUrl,
    CORE_API_ORG_KEY: org.apiKey,
    CORE_API_TENANT_ID: a.id,
    CORE_API_TENANT_KEY: await control.rotate(a.apiKey),
    CORE_API_OTHER_TENANT_ID: b.id,
    CORE_API_OTHER_TENANT_KEY: b.apiKey,
    CORE_API_FOREIGN_TENANT_ID: f.id,
    CORE_API_CLIENT_SERVER_SECRET: a.clientServerSecret,
    CORE_API_ROTATED_KEY: rotated,
  };
}

/** The `run` group's variables set in this process's environment (with `--live`, `CORE_API_LIVE_POOL` too), as the child's environment holds them. */
function runSettings(): Record<string, string> {
  const set = envEntries().filter((e) => (e.group === 'run' || (live && e.name === 'CORE_API_LIVE_POOL')) && isEnvSet(e.name));
  return Object.fromEntries(set.map((e) => [e.name, String(readEnv(e.name))]));
}

/**
 * CPU seconds (user + system) of this process's waited-for children so far: vitest and, through
 * it, its file workers. Read from /proc/self/stat (Linux; clock ticks of 1/100 s); undefined elsewhere.
 */
function childrenCpuS(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After the command name: field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) of this process so far: the simulator of a `--latency` or `--live` run answers here. */
const ownCpuS = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const walls: number[] = [];
const rates: number[] = [];
for (let i = 1; i <= runs; i++) {
  let sim: { baseUrl: string; controlUrl: string; close(): Promise<void> } | undefined;
  let extraEnv: Record<string, string> = runSettings();
  if (latencyMs > 0 || live) {
    const { startSimulator } = await import('../simulator/src/server');
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    await new ControlClient(sim.controlUrl).config({ chaos: { rate429: 0, rateReset: 0, delayMs: latencyMs, seed: 1 } });
    if (live) extraEnv = { ...extraEnv, ...(await liveEnv(sim.baseUrl, sim.controlUrl)) };
  }
  let r: ConformanceRunResult;
  const [childrenBefore, ownBefore] = [childrenCpuS(), ownCpuS()];
  try {
    r = await runConformance({
      projectRoot: root,
      files: positionals,
      runDir: join(root, 'reports', 'bench', `run-${i}`),
      baseUrl: sim?.baseUrl,
      controlUrl: live ? undefined : sim?.controlUrl,
      extraEnv,
      timeoutMs: 3_600_000,
      maxWorkers: workers,
      nodeArgs: prof,
      extraArgs: prof.map((a) => `--execArgv=${a}`),
    });
  } finally {
    await sim?.close();
  }
  const s = r.record.summary;
  const rate = r.record.requests.total / (r.wallMs / 1000);
  walls.push(r.wallMs);
  rates.push(rate);
  const lf = longestFile(r);
  console.log(
    `bench run ${i}${live ? ' (live-tenant mode)' : ''}${latencyMs ? ` (every answer delayed ${latencyMs} ms)` : live ? '' : ' (embedded)'}: ${(r.wallMs / 1000).toFixed(1)} s wall, ` +
      `${s.total} tests (${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped), ` +
      `${r.record.requests.total} requests (${r.record.requests.retries} retries), ${rate.toFixed(0)} requests/s over the wall time${workers ? `, ${workers} files in flight` : ''}; ` +
      `longest file ${lf.file}: its tests took ${(lf.ms / 1000).toFixed(1)} s summed (above the wall time when its tests run concurrently), ${lf.requests} requests`,
  );
  console.log(`bench run ${i}: per suite file, the longest chain of requests sent one after another and the most in flight:\n${overlapLines(r).join('\n')}`);
  const childrenAfter = childrenCpuS();
  if (childrenBefore !== undefined && childrenAfter !== undefined) {
    const [vitestCpu, simCpu] = [childrenAfter - childrenBefore, sim ? ownCpuS() - ownBefore : 0];
    const cores = availableParallelism();
    const cpuFloor = (vitestCpu + simCpu) / cores;
    console.log(
      `bench run ${i}: CPU ${vitestCpu.toFixed(1)} s in vitest and its workers${sim ? `, ${simCpu.toFixed(1)} s in the simulator (this process)` : ' (the embedded simulator included)'}; ` +
        `over ${cores} cores at least ${cpuFloor.toFixed(1)} s, the wall time ${(r.wallMs / 1000 / cpuFloor).toFixed(2)}× it`,
    );
  }
  if (latencyMs) {
    const serial = (r.record.requests.total * latencyMs) / 1000;
    // The report's own count (helpers/report/overlap.ts), so that the bench and "Where the time went" state one floor.
    const files = filesAtOnce(r.record.requests.fileWorkers ?? workers, r.record.requests.overlap ?? {}, r.record.requests.perFile);
    const timing = runTiming(r.record.requests.total, r.record.requests.perFile, r.record.requests.overlap ?? {}, latencyMs, files, concurrency());
    const floor = timing.floorMs / 1000;
    const chain = Math.max(0, ...Object.values(r.record.requests.overlap ?? {}).map((o) => o.chain));
    const bound = timing.bound ?? { file: '-', requests: 0, inFlight: 1, ms: 0 };
    console.log(
      `bench run ${i}: serial cost of all requests ${serial.toFixed(1)} s; floor (requests × ${latencyMs} ms ÷ ${files} files × ${concurrency()} in flight) ${floor.toFixed(1)} s, ` +
        `the wall time ${(r.wallMs / 1000 / floor).toFixed(2)}× it; the longest chain of one file × ${latencyMs} ms: ${((chain * latencyMs) / 1000).toFixed(1)} s; ` +
        `the file that needs longest at the most it had in flight: ${bound.file}, ${bound.requests} requests × ${latencyMs} ms ÷ ${bound.inFlight}: ${(bound.ms / 1000).toFixed(1)} s`,
    );
  }
}
console.log(
  `bench: conformance run${live ? ' (live-tenant mode)' : ''}${latencyMs ? ` at ${latencyMs} ms per answer` : live ? '' : ' embedded'} ${(median(walls) / 1000).toFixed(1)} s wall (median of ${runs}), ${median(rates).toFixed(0)} requests/s`,
);
