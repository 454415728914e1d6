/**
 * `npm run compare-checks -- <before/conformance.json> <after/conformance.json>`
 *
 * The evidence that a restructuring changed no verdict: for every test of two run records of the
 * same target, compares the verdict and the multiset of recorded checks (clause ids, requirement,
 * outcome, level). Prints each difference as `test: before → after` and a last line
 * `compare-checks: N tests, N differ`. Exit 0 when nothing differs, 1 when something does, 2 on
 * bad input (fewer than two records, unreadable file).
 */
import { resolve } from 'node:path';
import { readRunRecord } from '../helpers/report/record-io';
import { diffCheckSets } from '../helpers/report/check-sets';

function main(argv: string[]): number {
  if (argv.length !== 2) {
    console.error('usage: npm run compare-checks -- <before/conformance.json> <after/conformance.json>');
    return 2;
  }
  const [before, after] = argv.map((f) => readRunRecord(resolve(f)));
  const { tests, differences } = diffCheckSets(before, after);
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
