/**
 * `npm run bench [-- --runs N]`: wall time of the full conformance run against the embedded
 * simulator (vitest start-up and simulator start-up included) and requests per second, from the
 * run record's request total (`requests.total` of conformance.json: requests the suite's client
 * sent to the public API; control-API calls are not counted). Each run writes its reports to
 * `reports/bench/run-<n>/` so the normal reports/ are left alone. Kept out of the test run.
 * Figures measured on the project machine: docs/benchmarks.md.
 */
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { runConformance } from '../helpers/mutation/run';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const runs = Math.max(1, Number(values.runs) || 1);

const walls: number[] = [];
const rates: number[] = [];
for (let i = 1; i <= runs; i++) {
  const r = await runConformance({ projectRoot: root, files: [], runDir: join(root, 'reports', 'bench', `run-${i}`) });
  const s = r.record.summary;
  const rate = r.record.requests.total / (r.wallMs / 1000);
  walls.push(r.wallMs);
  rates.push(rate);
  console.log(
    `bench run ${i}: ${(r.wallMs / 1000).toFixed(1)} s wall, ${s.total} tests (${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped), ` +
      `${r.record.requests.total} requests (${r.record.requests.retries} retries), ${rate.toFixed(0)} requests/s over the wall time`,
  );
}
console.log(`bench: conformance run ${(median(walls) / 1000).toFixed(1)} s wall (median of ${runs}), ${median(rates).toFixed(0)} requests/s`);
