/**
 * `npm run report:merge -- <folder or conformance.json>… [--out <folder>] [--baseline <conformance.json> [--baseline-optional]]`
 *
 * Joins the `conformance.json` of `vitest --shard` runs (folders are searched for them) into one
 * run record, copies each shard's Allure results beside it, and re-renders conformance.md and
 * conformance.html — from the records alone, redacted again. `--out` defaults to
 * `$CONFORMANCE_REPORT_DIR` or `reports`. `--baseline` adds the comparison with an earlier run;
 * with `--baseline-optional` a missing baseline file is noted and skipped (the first nightly run).
 * The spec document is not needed.
 * Exit 0 when merged, 1 on bad input.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { copyAllureResults, mergeRuns, readShardRecords, suiteFilesOf } from '../helpers/report/merge';
import { readRunRecord, registerEnvironmentSecrets, writeRunRecord } from '../helpers/report/record-io';
import { writeReports } from '../helpers/report/writers';
import { compareRuns } from '../helpers/report/baseline';
import { readEnv } from '../helpers/base/env';

/** Merges shard records found under `inputs` into `out`; returns the summary line. @throws MergeError, RunRecordError. */
export async function mergeMain(inputs: string[], out: string, baseline?: string): Promise<string> {
  registerEnvironmentSecrets();
  const outFile = join(out, 'conformance.json');
  const { records, files } = readShardRecords(inputs, outFile);
  // The checkout's suite files: shards of a run given a file filter merge into a partial run.
  const merged = mergeRuns(
    records,
    files.map((f) => relative(process.cwd(), f)),
    { suiteFiles: suiteFilesOf(process.cwd()) },
  );
  if (baseline) merged.comparison = compareRuns(readRunRecord(baseline), merged, baseline);
  writeRunRecord(merged, out);
  await writeReports(merged, out);
  const copied = copyAllureResults(files, out);
  const s = merged.summary;
  return `report:merge: ${files.length} records → ${relative(process.cwd(), out) || '.'}/conformance.{json,md,html}; ${s.total} tests (${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped); ${merged.clauseSummary.fail} failing clauses; ${copied} allure files copied`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { out: { type: 'string' }, baseline: { type: 'string' }, 'baseline-optional': { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (!positionals.length) {
    console.error('usage: npm run report:merge -- <folder or conformance.json>… [--out <folder>] [--baseline <conformance.json> [--baseline-optional]]');
    process.exit(1);
  }
  let baseline = values.baseline;
  if (baseline && values['baseline-optional'] && !existsSync(baseline)) {
    console.log(`report:merge: no baseline at ${baseline} (--baseline-optional): merged without comparison`);
    baseline = undefined;
  }
  mergeMain(positionals, resolve(values.out ?? readEnv('CONFORMANCE_REPORT_DIR')), baseline).then(
    (line) => console.log(line),
    (e) => {
      console.error(`report:merge: ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
