/**
 * `npm run gate -- [--run <conformance.json>] [--baseline <conformance.json> [--baseline-optional]] [--allow <known-deviations.json>] [--allow-errors] [--max-checked-drop <points>] [--allow-partial] [--strict] [--today YYYY-MM-DD]`
 *
 * The pre-release gate on a finished run (default `reports/conformance.json`, or
 * `$CONFORMANCE_REPORT_DIR/conformance.json`): exits 1 when any `must` clause fails, any clause
 * regressed (pass → fail) against the baseline, or the run holds no test — one line per reason —
 * and 0 otherwise. It fails closed: a `must` clause that could not be verified (`error` verdict)
 * blocks too, unless `--allow-errors` (the nightly) turns those into warnings. `--allow-errors`
 * tolerates flakiness, not an outage: a run that could not reach its target, checked no `must`
 * clause, or checked a share of `must` clauses more than `--max-checked-drop` percentage points
 * (default 10) below the baseline's blocks whatever the flags. A missing
 * `--baseline` file is an error (exit 2) unless `--baseline-optional` (the first night). A partial
 * run (a file filter, `-t`, missing shards) blocks unless `--allow-partial`. A failing `should`
 * clause is a note, and blocks only with `--strict`. Failures listed in the allow-list (default spec/known-deviations.json) do not
 * block until their expiry date; expired entries block again and say so. Exit 2: bad input.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readRunRecord } from '../helpers/report/record-io';
import { DEFAULT_MAX_CHECKED_DROP, evaluateGate, mustChecked, readKnownDeviations, KNOWN_DEVIATIONS_FILE } from '../helpers/report/gate';
import { readEnv } from '../helpers/base/env';
import { redact } from '../helpers/base/redact';
import { registerEnvironmentSecrets } from '../helpers/report/record-io';

/** Runs the gate with command-line arguments; returns the exit status (0 pass, 1 blocked, 2 bad input). */
export function gateMain(argv: string[], log: (line: string) => void = console.log): number {
  let values: {
    run?: string;
    baseline?: string;
    allow?: string;
    today?: string;
    'allow-errors'?: boolean;
    'allow-partial'?: boolean;
    'baseline-optional'?: boolean;
    'max-checked-drop'?: string;
    strict?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        run: { type: 'string' },
        baseline: { type: 'string' },
        allow: { type: 'string' },
        today: { type: 'string' },
        'allow-errors': { type: 'boolean' },
        'allow-partial': { type: 'boolean' },
        'baseline-optional': { type: 'boolean' },
        'max-checked-drop': { type: 'string' },
        strict: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (e) {
    log(`gate: ${(e as Error).message}`);
    return 2;
  }
  registerEnvironmentSecrets();
  const runFile = values.run ?? join(readEnv('CONFORMANCE_REPORT_DIR'), 'conformance.json');
  const allowFile = values.allow ?? KNOWN_DEVIATIONS_FILE;
  try {
    const run = readRunRecord(resolve(runFile));
    if (values.baseline && values['baseline-optional'] && !existsSync(values.baseline)) {
      log(`gate: note no baseline at ${values.baseline} (--baseline-optional): no regression check`);
      values.baseline = undefined;
    }
    const baseline = values.baseline ? readRunRecord(resolve(values.baseline)) : undefined;
    const deviations = existsSync(allowFile) ? readKnownDeviations(allowFile) : [];
    if (values.today && !/^\d{4}-\d{2}-\d{2}$/.test(values.today)) throw new Error(`--today must be YYYY-MM-DD, got ${values.today}`);
    const now = values.today ? new Date(`${values.today}T12:00:00Z`) : new Date();
    const drop = values['max-checked-drop'];
    if (drop !== undefined && !(/^\d+(\.\d+)?$/.test(drop) && Number(drop) <= 100))
      throw new Error(`--max-checked-drop must be a number of percentage points from 0 to 100, got ${drop}`);
    const maxCheckedDrop = drop === undefined ? DEFAULT_MAX_CHECKED_DROP : Number(drop);
    const result = evaluateGate({
      run,
      baseline,
      baselineFile: values.baseline,
      deviations,
      now,
      allowErrors: values['allow-errors'],
      allowPartial: values['allow-partial'],
      maxCheckedDrop,
      strict: values.strict,
    });
    for (const r of result.reasons) log(redact(`gate: BLOCK ${r}`));
    for (const n of result.notes) log(redact(`gate: note ${n}`));
    const cs = run.clauseSummary;
    const m = mustChecked(run);
    log(
      `gate: ${result.ok ? 'PASS' : 'FAIL'} — ${runFile}: ${cs.fail} failing clauses, ${cs.pass} passing, ${cs.error} unverified (error), coverage ${(cs.coverage * 100).toFixed(1)}%, must clauses checked ${m.checked} of ${m.testable}` +
        (baseline ? `; against baseline ${values.baseline}: ${result.comparison!.regressions.length} regressions` : '; no baseline given'),
    );
    return result.ok ? 0 : 1;
  } catch (e) {
    log(`gate: cannot decide: ${redact((e as Error).message)}`);
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(gateMain(process.argv.slice(2)));
}
