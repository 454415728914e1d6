/**
 * `npm run mutation [-- --fault <name> … --file <suite> … --workers N --full --exhaustive --strict-timing]`: the mutation run
 *. Runs the conformance suite once per simulator fault (GET /__control/faults), in
 * parallel up to the core count, writes `reports/mutation.json` and `reports/mutation.md`, and
 * ends with the line `mutation: N killed, M survived`. Exit code 0 when every fault was killed,
 * 1 otherwise (a survivor is a missing test), 2 when the run itself could not be done.
 * Per-run logs and records: `reports/mutation-runs/<fault>/`. `--full` runs every suite file for
 * every fault (default: only the tests naming a clause the fault breaks); `--exhaustive` runs
 * each to the end (default: stop at the first kill); `--strict-timing` sets CORE_API_STRICT_TIMING=1
 * in every run, so the timing comparison of §5.7 can fail. See docs/mutation.md.
 */
import { parseArgs } from 'node:util';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closingLine, runMutation, writeMutationReports } from '../tools/mutation';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    fault: { type: 'string', multiple: true },
    file: { type: 'string', multiple: true },
    workers: { type: 'string' },
    full: { type: 'boolean', default: false },
    exhaustive: { type: 'boolean', default: false },
    'strict-timing': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'reports') },
  },
});

try {
  const report = await runMutation({
    projectRoot: root,
    runsDir: join(values.out!, 'mutation-runs'),
    faults: values.fault,
    files: values.file,
    workers: values.workers ? Number(values.workers) : undefined,
    selection: values.full ? 'full' : 'targeted',
    firstKill: !values.exhaustive,
    env: values['strict-timing'] ? { CORE_API_STRICT_TIMING: '1' } : undefined,
    log: (line) => console.log(line),
  });
  const { json, md } = writeMutationReports(report, values.out!);
  console.log(`wrote ${json} and ${md} (wall time ${(report.wallMs / 1000).toFixed(1)} s)`);
  if (report.totals.errors) console.log(`${report.totals.errors} fault run(s) broke; see the per-run logs in ${join(values.out!, 'mutation-runs')}`);
  console.log(closingLine(report.totals));
  process.exitCode = report.totals.killed === report.totals.faults ? 0 : 1;
} catch (e) {
  console.error(`mutation run failed: ${(e as Error).message}`);
  process.exitCode = 2;
}
