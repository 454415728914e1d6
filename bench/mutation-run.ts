/**
 * `npm run bench:mutation [-- --workers N --full]`: wall time of the whole mutation run (fault
 * list, baseline, one run per fault; simulators and vitest start-ups included), with the kill
 * totals. Writes reports/mutation.json and reports/mutation.md like `npm run mutation`. Kept out
 * of the test run. Figures measured on the project machine: docs/benchmarks.md.
 */
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closingLine, runMutation, writeMutationReports } from '../tools/mutation';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { workers: { type: 'string' }, full: { type: 'boolean', default: false } } });
const workers = values.workers ? Number(values.workers) : Math.max(1, availableParallelism());

const report = await runMutation({
  projectRoot: root,
  runsDir: join(root, 'reports', 'mutation-runs'),
  workers,
  selection: values.full ? 'full' : 'targeted',
});
writeMutationReports(report, join(root, 'reports'));
const ran = report.faults.filter((f) => f.files.length > 0);
const perFault = ran.length ? ran.reduce((n, f) => n + f.wallMs, 0) / ran.length : 0;
console.log(
  `bench: mutation run ${(report.wallMs / 1000).toFixed(1)} s wall, ${report.totals.faults} faults, ${workers} worker(s), selection ${report.selection}; ` +
    `baseline ${(report.baseline.wallMs / 1000).toFixed(1)} s, ${(perFault / 1000).toFixed(1)} s per fault run on average`,
);
console.log(closingLine(report.totals));
