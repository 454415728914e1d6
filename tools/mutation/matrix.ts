/**
 * The kill matrix: from a baseline run record and one run record per fault, decides
 * which faults were killed and by which tests, and counts per suite file how many it killed.
 * Pure functions over run records (helpers/report/model.ts); nothing here runs tests.
 *
 * Kill rule: a fault is killed when, in the run with that fault switched on, a failing test
 * (verdict `fail` or `error`) names one of the catalogue clause ids the fault breaks
 * (tools/mutation/fault.ts) and that same test did not fail in the baseline run (no fault). A
 * test "names" the clauses of its failing clause-tagged checks, or, when no check failed (a throw,
 * a timeout, a target error), every clause the test and its checks name.
 */
import type { UnprovenWay } from '../../helpers/report/statements';
import type { RunRecord, TestRecord } from '../../helpers/report/model';
import { breaks, groupOf, type Fault } from './fault';

/** A test that failed in a fault's run. */
export interface FailingTest {
  /** Full test name (describe blocks joined with " > "). */
  name: string;
  /** Suite file relative to the project root. */
  file: string;
  /** `fail` (a conformance failure) or `error` (the target misbehaved, e.g. a 5xx). */
  status: 'fail' | 'error';
  /** Clauses the failure names (see the kill rule). */
  clauses: string[];
  /** Those of them the fault breaks (non-empty for a killer). */
  matched: string[];
  /** The test also failed in the baseline run, so it proves nothing about the fault. */
  failedInBaseline: boolean;
  /** First line of the failure message (redacted by the reporter). */
  message?: string;
}

/** Verdict on one fault. `error`: the run itself broke (no run record), so nothing is known. */
export type FaultVerdict = 'killed' | 'survived' | 'error';

/** One fault's row of the matrix. */
export interface FaultResult {
  name: string;
  /** The fault name's group (`auth`, `bounds`, …), for sorting the report. */
  group: string;
  description: string;
  /** The catalogue clause ids the fault breaks. */
  faultClauses: string[];
  verdict: FaultVerdict;
  /** Suite files the run covered (empty: no suite test names a clause the fault breaks, nothing ran). */
  files: string[];
  /** Failing tests that kill it (naming a clause the fault breaks, passing in the baseline). */
  killedBy: FailingTest[];
  /** Other failing tests of the run (naming none of its clauses, or already failing in the baseline). */
  otherFailures: FailingTest[];
  /** Why it survived or errored, in words. */
  note?: string;
  /** Wall time of its run(s) in ms (0 when nothing ran). */
  wallMs: number;
  /** Tests selected for its run (targeted selection), or undefined when whole files ran. */
  selectedTests?: number;
  /** The run stopped at the first failure (`--bail 1`), so `killedBy` lists only the first killer(s). */
  stoppedEarly?: boolean;
}

/** Per-suite-file tally. */
export interface SuiteTally {
  /** Faults this file killed (a fault can be killed by several files). */
  killed: string[];
  /** Faults whose run included this file. */
  ran: string[];
}

/** `reports/mutation.json`. Holds no key or secret (run records are redacted by the reporter). */
export interface MutationReport {
  schemaVersion: 1;
  startedAt: string;
  finishedAt: string;
  /** Wall time of the whole mutation run in ms, simulator start-up and baseline included. */
  wallMs: number;
  /** Runs in parallel. */
  workers: number;
  /**
   * `targeted`: each fault runs only the baseline tests naming a clause it breaks; `full`: every
   * suite file.
   */
  selection: 'targeted' | 'full';
  /** Runs stopped at the first failure (`--bail 1`; re-run in full when that failure was no kill). */
  firstKill: boolean;
  baseline: { wallMs: number; summary: RunRecord['summary']; failing: { name: string; file: string }[] };
  totals: { faults: number; killed: number; survived: number; errors: number };
  faults: FaultResult[];
  /** Per suite file (relative path). */
  suites: Record<string, SuiteTally>;
  /**
   * The ways of `spec/statements.json` whose fault ran: proven (killed by a test of the way's
   * clause), unproven, and not shown by a first-kill run. Absent when the links file is unreadable.
   */
  ways?: { proven: number; unproven: UnprovenWay[]; notShown: UnprovenWay[] };
}

/** Clauses a test record names when it fails (see the kill rule). */
export function failureClauses(t: TestRecord): string[] {
  const failed = t.checks.filter((c) => !c.ok && c.level !== 'informational').flatMap((c) => c.clauses);
  if (failed.length) return [...new Set(failed)];
  return [...new Set([...t.clauses, ...t.checks.flatMap((c) => c.clauses)])];
}

const key = (t: { file: string; name: string }) => `${t.file}\u0000${t.name}`;

/** Keys (file + name) of the tests that failed or errored in a run. */
export function failingKeys(record: RunRecord): Set<string> {
  return new Set(record.tests.filter((t) => t.status === 'fail' || t.status === 'error').map(key));
}

/** Every clause id a test record names: its own and those of its checks. */
function namedBy(t: TestRecord): string[] {
  return [...t.clauses, ...t.checks.flatMap((c) => c.clauses)];
}

/**
 * Suite files whose tests (in the baseline run) name at least one clause the fault breaks,
 * sorted. Only these can kill the fault under the kill rule, which is why the targeted
 * selection loses no kill (docs/mutation.md).
 */
export function filesForFault(baseline: RunRecord, fault: Fault): string[] {
  return [...new Set(baseline.tests.filter((t) => namedBy(t).some((id) => breaks(fault, id))).map((t) => t.file))].sort();
}

/** The tests of a fault's targeted run: those naming a clause it breaks, in the baseline. */
export interface TestSelection {
  /** Suite files holding at least one selected test, sorted. */
  files: string[];
  /** Full names (record form, " > "-joined) of the selected tests. */
  names: string[];
  /** True when every baseline test of those files is selected (no name filter needed). */
  wholeFiles: boolean;
}

/**
 * Tests (in the baseline run) that name at least one clause the fault breaks, in their test name
 * or in any of their checks. Under the kill rule no other test can kill the fault.
 */
export function testsForFault(baseline: RunRecord, fault: Fault): TestSelection {
  const selected = baseline.tests.filter((t) => namedBy(t).some((id) => breaks(fault, id)));
  const files = [...new Set(selected.map((t) => t.file))].sort();
  const inFiles = baseline.tests.filter((t) => files.includes(t.file)).length;
  return { files, names: selected.map((t) => t.name), wholeFiles: selected.length === inFiles };
}

/**
 * The closest tests of a selection: those whose own name carries a clause the fault breaks
 * (test-level ids, not only check ids). They are run first because they are the likeliest
 * killers; undefined when none or all qualify.
 */
export function closestTests(baseline: RunRecord, fault: Fault, selection: TestSelection): TestSelection | undefined {
  const chosen = new Set(selection.names);
  const near = baseline.tests.filter((t) => chosen.has(t.name) && t.clauses.some((id) => breaks(fault, id)));
  if (near.length === 0 || near.length === selection.names.length) return undefined;
  const files = [...new Set(near.map((t) => t.file))].sort();
  const inFiles = baseline.tests.filter((t) => files.includes(t.file)).length;
  return { files, names: near.map((t) => t.name), wholeFiles: near.length === inFiles };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A vitest `--testNamePattern` selecting the named tests. vitest matches it against the test's
 * full name (describe names and test name joined by spaces), so the pattern matches the test's
 * own name (the last " > " part) at the end of the full name, after a space or at the start.
 * It may select a few more tests (another test with the same own name), never fewer.
 */
export function namePattern(names: string[]): string {
  const own = [...new Set(names.map((n) => n.split(' > ').pop()!))];
  return `(?:^|\\s)(?:${own.map(escapeRegExp).join('|')})$`;
}

/**
 * Judges one fault from its run record.
 * @param baselineFailing keys from {@link failingKeys} of the baseline run
 */
export function judgeFault(fault: Fault, run: RunRecord, baselineFailing: Set<string>, files: string[], wallMs: number): FaultResult {
  const killedBy: FailingTest[] = [];
  const otherFailures: FailingTest[] = [];
  for (const t of run.tests) {
    if (t.status !== 'fail' && t.status !== 'error') continue;
    const clauses = failureClauses(t);
    const matched = clauses.filter((id) => breaks(fault, id));
    const failedInBaseline = baselineFailing.has(key(t));
    const row: FailingTest = {
      name: t.name,
      file: t.file,
      status: t.status,
      clauses,
      matched,
      failedInBaseline,
      message: t.message?.split('\n')[0]?.slice(0, 300),
    };
    if (matched.length > 0 && !failedInBaseline) killedBy.push(row);
    else otherFailures.push(row);
  }
  const killed = killedBy.length > 0;
  let note: string | undefined;
  if (!killed) {
    note =
      otherFailures.length > 0
        ? `${otherFailures.length} test(s) failed, none naming a clause the fault breaks (${fault.clauses.join(', ')}) while passing in the baseline`
        : 'no test failed: a missing test';
  }
  return {
    name: fault.name,
    group: groupOf(fault.name),
    description: fault.description,
    faultClauses: fault.clauses,
    verdict: killed ? 'killed' : 'survived',
    files,
    killedBy,
    otherFailures,
    note,
    wallMs,
  };
}

/**
 * The row of a fault no suite test can kill: no baseline test names a clause it breaks. `known`
 * tells whether its ids are in the catalogue (an unknown id is a defect of the fault's entry).
 */
export function unreachableFault(fault: Fault, known: (id: string) => boolean): FaultResult {
  const unknown = fault.clauses.filter((id) => !known(id));
  return {
    name: fault.name,
    group: groupOf(fault.name),
    description: fault.description,
    faultClauses: fault.clauses,
    verdict: 'survived',
    files: [],
    killedBy: [],
    otherFailures: [],
    note:
      unknown.length > 0
        ? `clause id(s) not in the catalogue: ${unknown.join(', ')} (the fault must name catalogue ids)`
        : `no suite test names any of its clauses (${fault.clauses.join(', ')}): a missing test`,
    wallMs: 0,
  };
}

/** The row of a fault whose run broke (no run record). */
export function erroredFault(fault: Fault, files: string[], message: string, wallMs: number): FaultResult {
  return {
    name: fault.name,
    group: groupOf(fault.name),
    description: fault.description,
    faultClauses: fault.clauses,
    verdict: 'error',
    files,
    killedBy: [],
    otherFailures: [],
    note: message.split('\n')[0].slice(0, 300),
    wallMs,
  };
}

/** Per-suite tallies over the fault rows. */
export function tallySuites(results: FaultResult[], allFiles: string[]): Record<string, SuiteTally> {
  const out: Record<string, SuiteTally> = {};
  for (const f of allFiles) out[f] = { killed: [], ran: [] };
  for (const r of results) {
    for (const f of r.files) (out[f] ??= { killed: [], ran: [] }).ran.push(r.name);
    for (const f of new Set(r.killedBy.map((t) => t.file))) (out[f] ??= { killed: [], ran: [] }).killed.push(r.name);
  }
  return out;
}

/** Totals for the closing line. */
export function totals(results: FaultResult[]): MutationReport['totals'] {
  return {
    faults: results.length,
    killed: results.filter((r) => r.verdict === 'killed').length,
    survived: results.filter((r) => r.verdict === 'survived').length,
    errors: results.filter((r) => r.verdict === 'error').length,
  };
}

/**
 * The closing line of a mutation run: `mutation: N killed, M survived`, where M counts every
 * fault not killed (a run error proves nothing, so its fault is not killed).
 */
export function closingLine(t: MutationReport['totals']): string {
  return `mutation: ${t.killed} killed, ${t.faults - t.killed} survived`;
}
