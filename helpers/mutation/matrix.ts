/**
 * The kill matrix (issue 9): from a baseline run record and one run record per fault, decides
 * which faults were killed and by which tests, and counts per suite file how many it killed.
 * Pure functions over run records (helpers/report/model.ts); nothing here runs tests.
 *
 * Kill rule: a fault is killed when, in the run with that fault switched on, a failing test
 * (verdict `fail` or `error`) names a clause of the fault's area (helpers/mutation/areas.ts)
 * and that same test did not fail in the baseline run (no fault). A test "names" the clauses of
 * its failing clause-tagged checks, or, when no check failed (a throw, a timeout, a target error),
 * every clause the test and its checks name.
 */
import type { Clause } from '../catalogue';
import type { RunRecord, TestRecord } from '../report/model';
import { areaClauses, areaOf, clauseInArea, type Fault } from './areas';

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
  /** Those of them in the fault's area. */
  areaClauses: string[];
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
  area: string;
  description: string;
  /** The fault's own (descriptive) clause ids. */
  faultClauses: string[];
  verdict: FaultVerdict;
  /** Suite files the run covered (empty: no suite names a clause of the area, nothing ran). */
  files: string[];
  /** Failing tests that kill it (in the area, passing in the baseline). */
  killedBy: FailingTest[];
  /** Other failing tests of the run (outside the area, or already failing in the baseline). */
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
   * `targeted`: each fault runs only the baseline tests naming a clause of its area; `full`: every
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

/**
 * Suite files whose tests (in the baseline run) name at least one clause of the fault's area,
 * sorted. Only these can kill the fault under the kill rule, which is why the targeted
 * selection loses no kill (docs/mutation.md).
 */
export function filesForFault(baseline: RunRecord, catalogue: Map<string, Clause>, fault: Fault): string[] {
  const files = new Set<string>();
  for (const t of baseline.tests) {
    const named = [...t.clauses, ...t.checks.flatMap((c) => c.clauses)];
    if (named.some((id) => clauseInArea(id, catalogue.get(id), fault))) files.add(t.file);
  }
  return [...files].sort();
}

/** The tests of a fault's targeted run: those naming a clause of its area in the baseline. */
export interface TestSelection {
  /** Suite files holding at least one selected test, sorted. */
  files: string[];
  /** Full names (record form, " > "-joined) of the selected tests. */
  names: string[];
  /** True when every baseline test of those files is selected (no name filter needed). */
  wholeFiles: boolean;
}

/**
 * Tests (in the baseline run) that name at least one clause of the fault's area, in their test
 * name or in any of their checks. Under the kill rule no other test can kill the fault.
 */
export function testsForFault(baseline: RunRecord, catalogue: Map<string, Clause>, fault: Fault): TestSelection {
  const selected = baseline.tests.filter((t) => [...t.clauses, ...t.checks.flatMap((c) => c.clauses)].some((id) => clauseInArea(id, catalogue.get(id), fault)));
  const files = [...new Set(selected.map((t) => t.file))].sort();
  const inFiles = baseline.tests.filter((t) => files.includes(t.file)).length;
  return { files, names: selected.map((t) => t.name), wholeFiles: selected.length === inFiles };
}

/**
 * The closest tests of a selection: those whose own name carries a clause (test-level ids, not
 * check ids) in the area and in a section the fault itself cites (`5.7/...` → §5.7). They are run
 * first because they are the likeliest killers; undefined when none or all qualify.
 */
export function closestTests(baseline: RunRecord, catalogue: Map<string, Clause>, fault: Fault, selection: TestSelection): TestSelection | undefined {
  const sections = new Set(fault.clauses.map((c) => c.split('/')[0]));
  const chosen = new Set(selection.names);
  const near = baseline.tests.filter(
    (t) => chosen.has(t.name) && t.clauses.some((id) => sections.has(catalogue.get(id)?.section ?? id.split('/')[0]) && clauseInArea(id, catalogue.get(id), fault)),
  );
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
export function judgeFault(
  fault: Fault,
  run: RunRecord,
  baselineFailing: Set<string>,
  catalogue: Map<string, Clause>,
  files: string[],
  wallMs: number,
): FaultResult {
  const killedBy: FailingTest[] = [];
  const otherFailures: FailingTest[] = [];
  for (const t of run.tests) {
    if (t.status !== 'fail' && t.status !== 'error') continue;
    const clauses = failureClauses(t);
    const inArea = clauses.filter((id) => clauseInArea(id, catalogue.get(id), fault));
    const failedInBaseline = baselineFailing.has(key(t));
    const row: FailingTest = {
      name: t.name,
      file: t.file,
      status: t.status,
      clauses,
      areaClauses: inArea,
      failedInBaseline,
      message: t.message?.split('\n')[0]?.slice(0, 300),
    };
    if (inArea.length > 0 && !failedInBaseline) killedBy.push(row);
    else otherFailures.push(row);
  }
  const killed = killedBy.length > 0;
  let note: string | undefined;
  if (!killed) {
    note =
      otherFailures.length > 0
        ? `${otherFailures.length} test(s) failed, none naming a clause of area '${areaOf(fault.name)}' while passing in the baseline`
        : 'no test failed: a missing test';
  }
  return {
    name: fault.name,
    area: areaOf(fault.name),
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

/** The row of a fault no suite file can kill (no file names a clause of its area). */
export function unreachableFault(fault: Fault, catalogue: Map<string, Clause>): FaultResult {
  const known = areaClauses(catalogue, fault).size;
  return {
    name: fault.name,
    area: areaOf(fault.name),
    description: fault.description,
    faultClauses: fault.clauses,
    verdict: 'survived',
    files: [],
    killedBy: [],
    otherFailures: [],
    note:
      known === 0
        ? `no catalogue clause belongs to area '${areaOf(fault.name)}' (add clauses, or map the area in helpers/mutation/areas.ts)`
        : `no suite test names any of the ${known} catalogue clause(s) of area '${areaOf(fault.name)}': a missing test`,
    wallMs: 0,
  };
}

/** The row of a fault whose run broke (no run record). */
export function erroredFault(fault: Fault, files: string[], message: string, wallMs: number): FaultResult {
  return {
    name: fault.name,
    area: areaOf(fault.name),
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
