/**
 * `npm run compare-checks -- [--by-name] <before/conformance.json> <after/conformance.json>`
 *
 * The evidence that a restructuring changed no verdict: for every test of two run records of the
 * same target, compares the verdict and the multiset of recorded checks (clause ids, requirement,
 * outcome, level). Tests are paired by file and full name; `--by-name` pairs them by full name
 * alone, for a restructuring that moves tests between files without renaming them. Prints each difference as `test: before → after` and a last line
 * `compare-checks: N tests, N differ`. Exit 0 when nothing differs, 1 when something does, 2 on
 * bad input (fewer than two records, unreadable file).
 *
 * Make both records with `CORE_API_CONCURRENCY=1` and the same `FC_SEED`: with tests running
 * side by side, the invariant audits record on whichever test met an exchange, and a pooled
 * fixture's state decides which generated case reads it first, so two runs of one code base differ
 * by a few such checks (2026-11-26: 1 and 5 tests of 1,193; 0 with one test at a time).
 */
import { resolve } from 'node:path';
import { readRunRecord } from '../helpers/report/record-io';
import { diffCheckSets } from '../tools/check-sets';

function main(args: string[]): number {
  const byName = args.includes('--by-name');
  const argv = args.filter((a) => a !== '--by-name');
  if (argv.length !== 2 || argv.some((a) => a.startsWith('--'))) {
    console.error('usage: npm run compare-checks -- [--by-name] <before/conformance.json> <after/conformance.json>');
    return 2;
  }
  const [before, after] = argv.map((f) => readRunRecord(resolve(f)));
  const { tests, differences } = diffCheckSets(before, after, { byName });
  for (const d of differences) console.log(`${d.test}\n  ${d.what}`);
  console.log(`compare-checks: ${tests} tests, ${differences.length} differ`);
  return differences.length === 0 ? 0 : 1;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  console.error(`compare-checks: ${(e as Error).message}`);
  process.exitCode = 2;
}
