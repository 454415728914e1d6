/**
 * `npm run bench [-- --runs N] [--latency MS] [--workers N]`: wall time of the full conformance run, as
 * `npm run conformance` does it (vitest start-up and simulator start-up included), with the
 * requests per second (the run record's `requests.total`: requests the suite's client sent to the
 * public API; control-API calls are not counted) and the longest suite file.
 *
 * - Without `--latency`: against the embedded simulator (the suite's global setup starts it).
 * - With `--latency MS`: against an external simulator started here whose every public answer is
 *   delayed by MS ms (the simulator's chaos `delayMs`, control config; no 429s, no resets), as a
 *   target in another region would be. Also prints, for comparison, the serial cost (every
 *   request × MS: a run with no concurrency at all), the floor with 8 files and 8 requests in
 *   flight (serial cost ÷ 64, plus start-up), and the test with the most requests.
 *
 * `--workers N` overrides vitest's worker count (default: the configuration's, see vitest.config.ts).
 *
 * Each run writes its reports to `reports/bench/run-<n>/` so the normal reports/ are left alone.
 * Kept out of the test run. Figures measured on the project machine: docs/benchmarks.md.
 */
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { runConformance, type ConformanceRunResult } from '../tools/mutation/run';
import { ControlClient } from '../helpers/target/control';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, latency: { type: 'string', default: '0' }, workers: { type: 'string' } } });
const workers = values.workers ? Math.max(1, Number(values.workers) || 1) : undefined;
const runs = Math.max(1, Number(values.runs) || 1);
const latencyMs = Math.max(0, Number(values.latency) || 0);

/** The suite file with the largest sum of test wall times (tests inside a file run one after the other). */
function longestFile(r: ConformanceRunResult): { file: string; ms: number; requests: number } {
  const perFile = new Map<string, number>();
  for (const t of r.record.tests) perFile.set(t.file, (perFile.get(t.file) ?? 0) + t.durationMs);
  let best = { file: '-', ms: 0, requests: 0 };
  for (const [file, ms] of perFile) if (ms > best.ms) best = { file, ms, requests: r.record.requests.perFile[file] ?? 0 };
  return best;
}

/** Requests of the test that sent the most: with one request after another inside a test, its chain bounds the run from below. */
function longestChain(r: ConformanceRunResult): { name: string; requests: number } {
  let best = { name: '-', requests: 0 };
  for (const t of r.record.tests) if (t.requests > best.requests) best = { name: t.name, requests: t.requests };
  return best;
}

const walls: number[] = [];
const rates: number[] = [];
for (let i = 1; i <= runs; i++) {
  let sim: { baseUrl: string; controlUrl: string; close(): Promise<void> } | undefined;
  if (latencyMs > 0) {
    const { startSimulator } = await import('../simulator/src/server');
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    await new ControlClient(sim.controlUrl).config({ chaos: { rate429: 0, rateReset: 0, delayMs: latencyMs, seed: 1 } });
  }
  let r: ConformanceRunResult;
  try {
    r = await runConformance({
      projectRoot: root,
      files: [],
      runDir: join(root, 'reports', 'bench', `run-${i}`),
      baseUrl: sim?.baseUrl,
      controlUrl: sim?.controlUrl,
      timeoutMs: 900_000,
      maxWorkers: workers,
    });
  } finally {
    await sim?.close();
  }
  const s = r.record.summary;
  const rate = r.record.requests.total / (r.wallMs / 1000);
  walls.push(r.wallMs);
  rates.push(rate);
  const lf = longestFile(r);
  const chain = longestChain(r);
  console.log(
    `bench run ${i}${latencyMs ? ` (every answer delayed ${latencyMs} ms)` : ' (embedded)'}: ${(r.wallMs / 1000).toFixed(1)} s wall, ` +
      `${s.total} tests (${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped), ` +
      `${r.record.requests.total} requests (${r.record.requests.retries} retries), ${rate.toFixed(0)} requests/s over the wall time; ` +
      `longest file ${lf.file}: its tests took ${(lf.ms / 1000).toFixed(1)} s summed (${((lf.ms / r.wallMs) * 100).toFixed(0)}% of the wall time; above 100% when its tests run concurrently), ${lf.requests} requests`,
  );
  if (latencyMs) {
    const serial = (r.record.requests.total * latencyMs) / 1000;
    console.log(
      `bench run ${i}: serial cost of all requests ${serial.toFixed(1)} s; floor with 8 files × 8 requests in flight ≈ ${(serial / 64).toFixed(1)} s + start-up; ` +
        `the test with the most requests: ${chain.requests} in "${chain.name.slice(0, 80)}" (${((chain.requests * latencyMs) / 1000).toFixed(1)} s if sent one after the other)`,
    );
  }
}
console.log(
  `bench: conformance run${latencyMs ? ` at ${latencyMs} ms per answer` : ' embedded'} ${(median(walls) / 1000).toFixed(1)} s wall (median of ${runs}), ${median(rates).toFixed(0)} requests/s`,
);
