/**
 * `npm run bench:stability [-- --shuffles N]`: are the suite's verdicts independent of order and
 * concurrency? Runs the full conformance suite against the embedded simulator once with
 * `CORE_API_CONCURRENCY=1` (the reference), then N times (default 10) at the default concurrency
 * with `--sequence.shuffle` and a different `--sequence.seed` each, and prints, per run, the wall
 * time and every test whose verdict differs from the reference (none is the expected figure: no
 * flaky test). Reports go to `reports/bench/stability-<n>/`. Exit 1 when any verdict differs.
 */
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConformance, type ConformanceRunResult } from '../tools/mutation/run';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { shuffles: { type: 'string', default: '10' } } });
const shuffles = Math.max(1, Number(values.shuffles) || 10);

/** Test name → verdict of a run. */
const verdicts = (r: ConformanceRunResult) => new Map(r.record.tests.map((t) => [t.name, t.status]));

const reference = await runConformance({
  projectRoot: root,
  files: [],
  runDir: join(root, 'reports', 'bench', 'stability-ref'),
  extraEnv: { CORE_API_CONCURRENCY: '1' },
});
const ref = verdicts(reference);
const s = reference.record.summary;
console.log(
  `stability: reference (concurrency 1): ${(reference.wallMs / 1000).toFixed(1)} s, ${s.total} tests (${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped)`,
);
let differing = 0;
for (let i = 1; i <= shuffles; i++) {
  const seed = 1000 + i;
  const r = await runConformance({
    projectRoot: root,
    files: [],
    runDir: join(root, 'reports', 'bench', `stability-${i}`),
    extraArgs: ['--sequence.shuffle', `--sequence.seed=${seed}`],
  });
  const v = verdicts(r);
  const diff = [...new Set([...ref.keys(), ...v.keys()])].filter((n) => ref.get(n) !== v.get(n));
  differing += diff.length;
  console.log(
    `stability: shuffled run ${i} (seed ${seed}, default concurrency): ${(r.wallMs / 1000).toFixed(1)} s, ${diff.length} verdicts differ from the reference${
      diff.length
        ? `: ${diff
            .slice(0, 5)
            .map((n) => `${n.slice(0, 100)} (${ref.get(n) ?? 'absent'} → ${v.get(n) ?? 'absent'})`)
            .join('; ')}`
        : ''
    }`,
  );
}
console.log(`stability: ${shuffles} shuffled runs, ${differing} verdicts differing from the concurrency-1 reference`);
process.exit(differing ? 1 : 0);
