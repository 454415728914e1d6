/**
 * The run record: what `reports/conformance.json` holds. Reports (Markdown, HTML, gate, baseline
 * diff, shard merge) are computed from this record alone, never by re-running tests.
 */
import type { CheckRecord, DriftRecord } from '../meta';
import type { Clause } from '../catalogue';

/** Verdict of one test. `error`: the target or network misbehaved, not a conformance verdict. */
export type TestVerdict = 'pass' | 'fail' | 'skip' | 'error';

/** Verdict of one clause; `not-covered` when no test in the run names it. */
export type ClauseVerdict = 'pass' | 'fail' | 'skip' | 'error' | 'not-covered' | 'not-testable';

/** One test as the report shows it. */
export interface TestRecord {
  /** Full name: describe blocks and test name joined with " > ". */
  name: string;
  /** Suite file, relative to the project root. */
  file: string;
  clauses: string[];
  /** vitest state mapped to a verdict. */
  status: TestVerdict;
  durationMs: number;
  /** Failure or skip message, redacted. */
  message?: string;
  checks: CheckRecord[];
  requests: number;
  retries: number;
  drift: DriftRecord[];
  /** Last exchanges before a failure, redacted (evidence). */
  evidence?: unknown[];
}

/** One clause with its verdict and the tests that name it. */
export interface ClauseRecord extends Clause {
  verdict: ClauseVerdict;
  /** Names of the tests that name this clause. */
  tests: string[];
  /** Why it failed / was skipped, from the first relevant test. */
  message?: string;
}

/** The whole run (`reports/conformance.json`, schemaVersion 1). Holds no key or secret. */
export interface RunRecord {
  schemaVersion: 1;
  target: { mode: string; baseUrl: string };
  startedAt: string;
  finishedAt: string;
  /** Test counts (conformance project only). */
  summary: { passed: number; failed: number; skipped: number; errors: number; total: number };
  /** Clause counts by verdict and coverage = testable clauses with a test / testable clauses. */
  clauseSummary: Record<ClauseVerdict, number> & { coverage: number };
  /** Requests sent to the target: total, retries, and per suite file. */
  requests: { total: number; retries: number; perFile: Record<string, number> };
  drift: (DriftRecord & { tests: string[] })[];
  tests: TestRecord[];
  clauses: ClauseRecord[];
}

/**
 * Derives clause verdicts from test records (OpenID-conformance style: a failing check fails only
 * the clauses it names; a failing test without a clause-tagged failing check fails all its clauses).
 * Precedence when several tests name a clause: fail > error > pass > skip.
 */
export function clauseVerdicts(catalogue: Map<string, Clause>, tests: TestRecord[]): ClauseRecord[] {
  const byClause = new Map<string, { verdicts: ClauseVerdict[]; tests: string[]; message?: string }>();
  const note = (id: string, v: ClauseVerdict, test: TestRecord, message?: string) => {
    const e = byClause.get(id) ?? { verdicts: [], tests: [] };
    e.verdicts.push(v);
    if (!e.tests.includes(test.name)) e.tests.push(test.name);
    if (message && !e.message && (v === 'fail' || v === 'error' || v === 'skip')) e.message = message;
    byClause.set(id, e);
  };
  for (const t of tests) {
    const failedChecks = t.checks.filter((c) => !c.ok && c.level !== 'informational');
    const failedIds = new Set(failedChecks.flatMap((c) => c.clauses));
    const named = new Set([...t.clauses, ...t.checks.flatMap((c) => c.clauses)]);
    for (const id of named) {
      if (t.status === 'fail') {
        if (failedIds.size === 0 || failedIds.has(id)) note(id, 'fail', t, t.message);
        else if (t.checks.some((c) => c.ok && c.clauses.includes(id))) note(id, 'pass', t);
        else note(id, 'fail', t, t.message);
      } else note(id, t.status, t, t.message);
    }
  }
  const rank: ClauseVerdict[] = ['fail', 'error', 'pass', 'skip'];
  const out: ClauseRecord[] = [];
  for (const c of catalogue.values()) {
    const e = byClause.get(c.id);
    let verdict: ClauseVerdict;
    if (c.targets.length === 0) verdict = e ? rank.find((r) => e.verdicts.includes(r))! : 'not-testable';
    else if (!e) verdict = 'not-covered';
    else verdict = rank.find((r) => e.verdicts.includes(r))!;
    out.push({ ...c, verdict, tests: e?.tests ?? [], message: e?.message });
  }
  return out;
}

/** Counts clause verdicts and the coverage figure (0..1). */
export function summariseClauses(clauses: ClauseRecord[]): RunRecord['clauseSummary'] {
  const s = { pass: 0, fail: 0, skip: 0, error: 0, 'not-covered': 0, 'not-testable': 0, coverage: 1 } as RunRecord['clauseSummary'];
  for (const c of clauses) s[c.verdict] += 1;
  const testable = clauses.filter((c) => c.targets.length > 0);
  s.coverage = testable.length === 0 ? 1 : testable.filter((c) => c.tests.length > 0).length / testable.length;
  return s;
}
