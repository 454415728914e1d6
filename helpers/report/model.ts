/**
 * The run record: what `reports/conformance.json` holds (format: docs/report-format.md). Reports
 * (Markdown, HTML, gate, baseline diff, shard merge) are computed from this record alone, never by
 * re-running tests.
 */
import type { AnswerTimes, RequestOverlap } from './overlap';
import type { CheckRecord, DriftRecord, MatrixCell, OwnSideKind } from '../base/meta';
import type { Clause, ClauseTarget } from '../spec/catalogue';
import type { StatementResult } from './statements';
import { SWITCHES, type Switch } from '../target/target';
import type { LaneRecord } from '../live/lanes';

/** Verdict of one test. `error`: the target or network misbehaved, not a conformance verdict. */
export type TestVerdict = 'pass' | 'fail' | 'skip' | 'error';

/** Verdict of one clause; `not-covered` when no test in the run names a testable clause. */
export type ClauseVerdict = 'pass' | 'fail' | 'skip' | 'error' | 'not-covered' | 'not-testable';

/** Every clause verdict, in the order reports list them (worst first). */
export const CLAUSE_VERDICTS: readonly ClauseVerdict[] = ['fail', 'error', 'not-covered', 'skip', 'pass', 'not-testable'];

/**
 * Why something was skipped, from the reason's leading words (helpers/target/target.ts `capabilityReason`,
 * helpers/world/world.ts `missing`):
 * - `not-applicable`: the clause or test does not apply to this target (e.g. needs a control API);
 * - `missing-fixture`: an optional live fixture variable was not given;
 * - `opt-in`: an opt-in (`CORE_API_ALLOW_SMS`, `CORE_API_ALLOW_BILLABLE`) was not given;
 * - `not-run`: a partial run (file filter, `-t`, one shard) did not run the clause's tests (format 1.2);
 * - `other`: any other reason (precondition not met, filtered out).
 */
export type SkipKind = 'not-applicable' | 'missing-fixture' | 'opt-in' | 'not-run' | 'other';

/** Classifies a skip reason by its leading words (see {@link SkipKind}). */
export function skipKindOf(reason: string | undefined): SkipKind {
  const r = (reason ?? '').trim().toLowerCase();
  if (r.startsWith('not applicable')) return 'not-applicable';
  if (r.startsWith('missing optional fixture')) return 'missing-fixture';
  if (r.startsWith('opt-in not given')) return 'opt-in';
  return 'other';
}

/** One test as the report shows it. */
export interface TestRecord {
  /** Full name: describe blocks and test name joined with " > ". */
  name: string;
  /** Suite file, relative to the project root. */
  file: string;
  clauses: string[];
  /** vitest state mapped to a verdict. */
  status: TestVerdict;
  /** Wall time of the test in ms. */
  durationMs: number;
  /** Failure or skip message, redacted. */
  message?: string;
  /** For `skip`: the kind of reason (absent from records older than format 1.1). */
  skipKind?: SkipKind;
  /** For `skip`: the switches that would lift it (helpers/target/target.ts `Switch` names; format 1.4). */
  needs?: string[];
  checks: CheckRecord[];
  /** Requests this test sent to the target, retries included. */
  requests: number;
  retries: number;
  /** Attempts that got no answer within the request deadline (format 1.6; absent means 0). */
  hung?: number;
  /** Answers that were not the API's: a gateway's 5xx page, a body cut short (format 1.6; absent means 0). */
  notApi?: number;
  /** Answers whose body did not parse, asked for once more before being judged (format 1.10; absent means 0; helpers/http/mangled.ts). */
  notJsonResent?: number;
  /** Exchanges each audit of every exchange judged during the test, by audit name (format 1.13). */
  audits?: Record<string, number>;
  /** For `error`: how the run's own side spoilt the evidence (format 1.12; helpers/live/own-side.ts): another writer, a late runner, a window outrun. */
  ownSide?: OwnSideKind;
  /** For `error`: the first target trouble in words, redacted: what came back instead, or what a cut-off test waited on (format 1.6). */
  trouble?: string;
  drift: DriftRecord[];
  /** Last exchanges before a failure, redacted (evidence): `{ request, response?, error? }` of helpers/base/exchange.ts. */
  evidence?: unknown[];
  /** The authorization-matrix cell this test decided (format 1.3). */
  matrixCell?: MatrixCell;
}

/** One clause with its verdict and the tests that name it. */
export interface ClauseRecord extends Clause {
  verdict: ClauseVerdict;
  /** Names of the tests that name this clause (in the test name or on a check). */
  tests: string[];
  /** Why it failed / errored / was skipped, from the first relevant test. */
  message?: string;
  /** For `skip`: the kind of reason (absent from records older than format 1.1). */
  skipKind?: SkipKind;
}

/** A shard of a sharded run (`vitest --shard index/count`), 1-based. */
export interface ShardInfo {
  index: number;
  count: number;
}

/** The whole run (`reports/conformance.json`, schemaVersion 1, format 1.1). Holds no key or secret. */
export interface RunRecord {
  schemaVersion: 1;
  /** Minor format revision; absent means 1.0 (see docs/report-format.md). Added fields are optional. */
  formatVersion?: string;
  target: { mode: string; baseUrl: string };
  startedAt: string;
  finishedAt: string;
  /** Test counts (conformance project only). */
  summary: {
    passed: number;
    failed: number;
    skipped: number;
    errors: number;
    total: number;
    /** Tested statements / testable statements of the spec (0..1); format 1.2. */
    statementCoverage?: number;
    /** Strong statements (every listed way covered by a passing test or explained) / testable statements (0..1); format 1.7. */
    statementStrength?: number;
  };
  /** Clause counts by verdict and coverage = testable clauses with a test / testable clauses (0..1). */
  clauseSummary: Record<ClauseVerdict, number> & { coverage: number };
  /**
   * Requests sent to the target: total, retries, per suite file, and (format 1.6) how often the
   * target misbehaved: attempts that hung past the request deadline, answers that were not the API's;
   * (format 1.8, live runs) the run's request budget.
   */
  requests: {
    total: number;
    retries: number;
    perFile: Record<string, number>;
    hung?: number;
    notApi?: number;
    notJsonResent?: number;
    budget?: number;
    /** Per suite file: the longest chain of requests sent one after another and the most in flight at once (format 1.15; helpers/report/overlap.ts). */
    overlap?: Record<string, RequestOverlap>;
    /** How long the answers took, over every request's span (format 1.18; helpers/report/overlap.ts). */
    answerMs?: AnswerTimes;
    /** `CORE_API_CONCURRENCY` of the run: requests in flight per suite file, for the floor (format 1.18). */
    concurrency?: number;
    /** File workers of the run (`CORE_API_FILE_WORKERS` or vitest's default): suite files in flight at once, for the floor (format 1.19). */
    fileWorkers?: number;
  };
  drift: (DriftRecord & { tests: string[] })[];
  tests: TestRecord[];
  clauses: ClauseRecord[];
  /** Spec section titles by number (`"5": "Authentication"`), for grouping; format 1.1. */
  sections?: Record<string, string>;
  /** Set when this record is one shard of a sharded run; format 1.1. */
  shard?: ShardInfo;
  /** Set when this record was joined from shard records by `npm run report:merge`; format 1.1. */
  merged?: { sources: string[]; shards: ShardInfo[] };
  /** Set when the run did not run every suite test (a file filter, `-t`, one shard): why; format 1.2. */
  partial?: { reasons: string[] };
  /** Comparison with a baseline run (`--baseline`); format 1.1. */
  comparison?: RunComparison;
  /** Per-statement verdicts of the spec (spec/statements.json links); format 1.2. */
  spec?: { statements: StatementResult[] };
  /** How many `must` clauses the run checked and what each switch left off would turn on; format 1.4. */
  off?: OffSummary;
  /**
   * Set when the run stopped before its first test because the probe could not reach the API
   * (helpers/target/probe.ts), or (format 1.11, `what` set) something else stopped it there, such as no
   * free lane on a live tenant (helpers/live/lanes.ts): the cause and its fix, redacted; the record then
   * holds no test, and the gate blocks whatever its flags (an outage); format 1.5.
   */
  unreachable?: Outage;
  /** The live-tenant lane each run of the record held (one per shard once merged; helpers/live/lanes.ts); format 1.11. */
  lanes?: LaneRecord[];
  /**
   * Tests in `error` because the run's own side spoilt their evidence, per kind (format 1.12;
   * helpers/live/own-side.ts): `foreign-write` (another writer changed a fixture between a test's reads),
   * `late-runner` (the runner's clock ran late over a timed window), `window` (a limit check
   * outran the window it judges). Absent when none.
   */
  ownSide?: Partial<Record<OwnSideKind, number>>;
  /**
   * Exchanges each audit of every exchange judged over the run, by audit name: the envelope audit
   * (helpers/audits/envelope.ts) and the invariant audits (helpers/audits/); format 1.13. Absent when none ran.
   */
  audits?: Record<string, number>;
}

/**
 * What stopped a run before its first test: `what` names it the way the reports' heading and the
 * gate say it ("no free lane on the live tenant"); absent, the target could not be reached.
 */
export interface Outage {
  cause: string;
  fix: string;
  what?: string;
}

/** The reports' heading of an outage: its `what` with a capital, else "Target unreachable". */
export function outageHeading(o: Outage): string {
  return o.what ? o.what[0].toUpperCase() + o.what.slice(1) : 'Target unreachable';
}

/** One switch a run left off (helpers/target/target.ts `SWITCHES`) and the `must` clauses it would turn on. */
export interface OffSwitch {
  /** Switch name (`wildcardDns`, `control`, …). */
  name: string;
  /** Short name for reports ("wildcard DNS"). */
  label: string;
  /** The variable that turns it on, as it is set (`CORE_API_ALLOW_SMS=1`); absent for `control`. */
  variable?: string;
  /** One line saying how to turn it on. */
  howTo: string;
  /** Ids of the skipped `must` clauses a skipped test tagged with this switch names (some may need another switch too). */
  mustClauses: string[];
  /** Skipped tests tagged with this switch: what it adds where its clauses are partly checked by other tests (format 1.8). */
  tests?: number;
  /**
   * For `control` only: each `must` clause that still needs a simulator's control API, with why
   * (the catalogue's reason, else the skip message), so a reader sees the ceiling of a live run (format 1.14).
   */
  reasons?: { id: string; reason: string }[];
}

/** The first-screen figures of a run (format 1.4): `must` clauses checked, and what the run left off. */
export interface OffSummary {
  /** `must` clauses with a judged verdict (pass, fail or error). */
  mustChecked: number;
  /** `must` clauses testable somewhere (catalogue targets not empty). */
  mustTestable: number;
  /** Switches whose absence skipped at least one test or `must` clause, most clauses (then tests) first. */
  switches: OffSwitch[];
}

/** Current minor format revision written by this code. */
export const FORMAT_VERSION = '1.19';

/** Which catalogue target a run mode exercises: simulators (embedded, external) or a live tenant. */
export function targetKindOf(mode: string): ClauseTarget {
  return mode === 'live' ? 'live' : 'simulator';
}

/** What one test's record says about one clause it names: the facts the rules of {@link TEST_CLAUSE_RULES} read. */
interface ClauseInTest {
  test: TestRecord;
  /** The test declares the clause (in its name), not only a check of it. */
  declared: boolean;
  /** A failing check (judged, not informational) that names the clause. */
  failedCheck?: CheckRecord;
  /** The test failed and no check failed, judged or not: the failure is the test's own. */
  noFailedCheck: boolean;
  /** A check that names the clause and could not be evaluated (the answer was not JSON). */
  unevaluatedCheck?: CheckRecord;
  /** The first check of the test that could not be evaluated, whatever it names. */
  anyUnevaluated?: CheckRecord;
  /** A passing check names the clause. */
  passedCheck: boolean;
}

/** One rule: for a test of `status` whose facts match `when`, the clause gets `verdict` and `message`. */
interface TestClauseRule {
  status: TestVerdict;
  when: (f: ClauseInTest) => boolean;
  verdict: ClauseVerdict;
  message: (f: ClauseInTest) => string | undefined;
}

/**
 * What a test says of each clause it names; the first rule that matches decides (OpenID-conformance
 * style: a failing check fails only the clauses it names).
 */
const TEST_CLAUSE_RULES: TestClauseRule[] = [
  // A failing check names the clause, or the test failed with no failing check: fail, in that check's words.
  { status: 'fail', when: (f) => f.failedCheck !== undefined || f.noFailedCheck, verdict: 'fail', message: (f) => f.failedCheck?.detail ?? f.test.message },
  // A check of the clause could not be evaluated: error (the not-JSON defect is judged once, by its own clause).
  { status: 'fail', when: (f) => f.unevaluatedCheck !== undefined, verdict: 'error', message: (f) => f.unevaluatedCheck!.detail },
  // Other clauses failed; this one's checks passed.
  { status: 'fail', when: (f) => f.passedCheck, verdict: 'pass', message: () => undefined },
  // Not proven, and an answer could not be evaluated: error.
  { status: 'fail', when: (f) => f.anyUnevaluated !== undefined, verdict: 'error', message: (f) => f.anyUnevaluated!.detail },
  { status: 'fail', when: () => true, verdict: 'fail', message: (f) => f.test.message },
  // A check already recorded as passed is not turned red by later trouble: a clause named only by
  // checks that all passed keeps their pass; the test's own clauses were not proven.
  { status: 'error', when: (f) => !f.declared && f.failedCheck === undefined && f.passedCheck, verdict: 'pass', message: () => undefined },
  { status: 'error', when: () => true, verdict: 'error', message: (f) => f.test.message },
  { status: 'pass', when: () => true, verdict: 'pass', message: () => undefined },
  { status: 'skip', when: () => true, verdict: 'skip', message: (f) => f.test.message },
];

/** The facts of {@link ClauseInTest} for clause `id` in test `t`. */
function clauseInTest(t: TestRecord, id: string): ClauseInTest {
  const failedChecks = t.checks.filter((c) => !c.ok && c.level !== 'informational' && !c.unevaluated);
  // Checks that could not be evaluated (the answer was not JSON): their clauses are `error`, the defect is judged once elsewhere.
  const unevaluated = t.checks.filter((c) => !c.ok && c.unevaluated);
  return {
    test: t,
    declared: t.clauses.includes(id),
    failedCheck: failedChecks.find((c) => c.clauses.includes(id)),
    noFailedCheck: failedChecks.every((c) => c.clauses.length === 0) && unevaluated.length === 0,
    unevaluatedCheck: unevaluated.find((c) => c.clauses.includes(id)),
    anyUnevaluated: unevaluated[0],
    passedCheck: t.checks.some((c) => c.ok && c.clauses.includes(id)),
  };
}

/** What the tests that name a clause said of it: every verdict, the tests, the first failure's message and the first skip's kind and message. */
interface ClauseEvidence {
  verdicts: ClauseVerdict[];
  tests: string[];
  message?: string;
  skipKind?: SkipKind;
  skipMessage?: string;
}

/** Every clause the tests name, with what each test said of it ({@link TEST_CLAUSE_RULES}). */
function evidenceByClause(tests: TestRecord[]): Map<string, ClauseEvidence> {
  const byClause = new Map<string, ClauseEvidence>();
  for (const t of tests) {
    for (const id of new Set([...t.clauses, ...t.checks.flatMap((c) => c.clauses)])) {
      const facts = clauseInTest(t, id);
      const rule = TEST_CLAUSE_RULES.find((r) => r.status === t.status && r.when(facts))!;
      const message = rule.message(facts);
      const e = byClause.get(id) ?? { verdicts: [], tests: [] };
      e.verdicts.push(rule.verdict);
      if (!e.tests.includes(t.name)) e.tests.push(t.name);
      if (message && !e.message && (rule.verdict === 'fail' || rule.verdict === 'error')) e.message = message;
      if (rule.verdict === 'skip' && !e.skipKind) e.skipKind = t.skipKind ?? skipKindOf(t.message);
      if (t.status === 'skip' && t.message && !e.skipMessage) e.skipMessage = t.message;
      byClause.set(id, e);
    }
  }
  return byClause;
}

/** A clause's verdict, with the message and skip kind its record carries. */
interface ClauseOutcome {
  verdict: ClauseVerdict;
  message?: string;
  skipKind?: SkipKind;
}

/** Several tests name a clause: the first of these verdicts any of them gave wins. */
const VERDICT_PRECEDENCE: ClauseVerdict[] = ['fail', 'error', 'pass', 'skip'];

/**
 * A clause's outcome. No test names it: `not-testable` (no catalogue target), `skip` of kind
 * `not-applicable` (its targets exclude the run's), `skip` of kind `not-run` (a partial run), else
 * `not-covered`. Tests name it: the first of {@link VERDICT_PRECEDENCE} they gave.
 */
function clauseOutcome(c: Clause, e: ClauseEvidence | undefined, kind: ClauseTarget | undefined, partial: string[] | undefined): ClauseOutcome {
  if (!e && c.targets.length === 0) return { verdict: 'not-testable' };
  if (!e && kind && !c.targets.includes(kind))
    return { verdict: 'skip', skipKind: 'not-applicable', message: `not applicable to this target: testable on ${c.targets.join(' and ')} only` };
  if (!e && partial?.length) return { verdict: 'skip', skipKind: 'not-run', message: `not run: partial run (${partial.join('; ')})` };
  if (!e) return { verdict: 'not-covered' };
  const verdict = VERDICT_PRECEDENCE.find((r) => e.verdicts.includes(r))!;
  if (verdict === 'skip') return { verdict, skipKind: e.skipKind, message: e.skipMessage };
  return { verdict, message: e.message };
}

/**
 * Derives clause verdicts from test records by two rule tables: what each test says of each clause it
 * names ({@link TEST_CLAUSE_RULES}: a failing check fails only the clauses it names; a failing test
 * without a clause-tagged failing check fails all its clauses; a test in `error` leaves a clause that
 * only its passed checks name passing), then the clause's outcome ({@link clauseOutcome}).
 * Precedence when several tests name a clause: fail > error > pass > skip. A testable clause no test
 * names is `not-covered`, or `skip` (kind `not-applicable`) when its targets exclude `mode`'s target.
 * In a partial run (`partial` gives its reasons) such a clause is `skip` of kind `not-run` instead:
 * the run did not look, so it says nothing about coverage.
 * @param mode run mode (`embedded`, `external`, `live`); omitted: every clause applies.
 */
export function clauseVerdicts(catalogue: Map<string, Clause>, tests: TestRecord[], mode?: string, partial?: string[]): ClauseRecord[] {
  const byClause = evidenceByClause(tests);
  const kind = mode === undefined ? undefined : targetKindOf(mode);
  return [...catalogue.values()].map((c) => {
    const e = byClause.get(c.id);
    const { file: _file, ...clause } = c;
    const { verdict, message, skipKind } = clauseOutcome(c, e, kind, partial);
    const rec: ClauseRecord = { ...clause, verdict, tests: e?.tests ?? [] };
    if (c.file) rec.file = c.file;
    if (message) rec.message = message;
    if (skipKind) rec.skipKind = skipKind;
    return rec;
  });
}

/** Counts clause verdicts and the coverage figure (0..1; 1 when nothing is testable). */
export function summariseClauses(clauses: ClauseRecord[]): RunRecord['clauseSummary'] {
  const s = { pass: 0, fail: 0, skip: 0, error: 0, 'not-covered': 0, 'not-testable': 0, coverage: 1 } as RunRecord['clauseSummary'];
  for (const c of clauses) s[c.verdict] += 1;
  const testable = clauses.filter((c) => c.targets.length > 0);
  s.coverage = testable.length === 0 ? 1 : testable.filter((c) => c.tests.length > 0).length / testable.length;
  return s;
}

/**
 * The first-screen figures: `must` clauses judged of the testable ones, and for every switch (from
 * the `needs` of skipped tests) the skipped `must` clauses it would turn on. A clause whose
 * catalogue targets exclude the run's target counts under `control` (only a simulator checks it).
 * Counts come from the tags alone, never from the words of a reason.
 */
export function offSummary(clauses: ClauseRecord[], tests: TestRecord[]): OffSummary {
  const must = clauses.filter((c) => c.level === 'must' && c.targets.length > 0);
  const skipped = new Map(must.filter((c) => c.verdict === 'skip').map((c) => [c.id, c]));
  const bySwitch = new Map<string, Set<string>>();
  const testsBySwitch = new Map<string, number>();
  const add = (name: string, id?: string) => {
    const set = bySwitch.get(name) ?? new Set<string>();
    if (id) set.add(id);
    bySwitch.set(name, set);
  };
  for (const t of tests) {
    if (t.status !== 'skip' || !t.needs?.length) continue;
    const ids = new Set([...t.clauses, ...t.checks.flatMap((c) => c.clauses)]);
    for (const n of t.needs) {
      add(n);
      testsBySwitch.set(n, (testsBySwitch.get(n) ?? 0) + 1);
      for (const id of ids) if (skipped.has(id)) add(n, id);
    }
  }
  for (const c of skipped.values()) if (c.skipKind === 'not-applicable' && c.tests.length === 0) add('control', c.id);
  const order = Object.keys(SWITCHES);
  const switches: OffSwitch[] = [...bySwitch.entries()]
    .map(([name, ids]) => {
      const info = SWITCHES[name as Switch] ?? { label: name, howTo: `turn on ${name}` };
      return {
        name,
        label: info.label,
        ...(info.variable ? { variable: info.variable } : {}),
        howTo: info.howTo,
        mustClauses: [...ids].sort(),
        tests: testsBySwitch.get(name) ?? 0,
        ...(name === 'control' ? { reasons: [...ids].sort().map((id) => ({ id, reason: controlReason(must.find((c) => c.id === id)) })) } : {}),
      };
    })
    .sort((a, b) => b.mustClauses.length - a.mustClauses.length || (b.tests ?? 0) - (a.tests ?? 0) || order.indexOf(a.name) - order.indexOf(b.name));
  return {
    mustChecked: must.filter((c) => c.verdict === 'pass' || c.verdict === 'fail' || c.verdict === 'error').length,
    mustTestable: must.length,
    switches,
  };
}

/** Why a clause needs a simulator's control API: the catalogue's reason, else the skip message, else the switch's own words. */
function controlReason(c: ClauseRecord | undefined): string {
  return c?.reason ?? c?.message ?? SWITCHES.control.howTo;
}

/** Test counts of a list of test records. */
export function summariseTests(tests: TestRecord[]): RunRecord['summary'] {
  return {
    passed: tests.filter((t) => t.status === 'pass').length,
    failed: tests.filter((t) => t.status === 'fail').length,
    skipped: tests.filter((t) => t.status === 'skip').length,
    errors: tests.filter((t) => t.status === 'error').length,
    total: tests.length,
  };
}

/** Request totals of a list of test records: total, retries, per suite file, hung attempts, answers not the API's. */
export function summariseRequests(tests: TestRecord[]): RunRecord['requests'] {
  const perFile: Record<string, number> = {};
  for (const t of tests) perFile[t.file] = (perFile[t.file] ?? 0) + t.requests;
  return {
    total: tests.reduce((n, t) => n + t.requests, 0),
    retries: tests.reduce((n, t) => n + t.retries, 0),
    perFile,
    hung: tests.reduce((n, t) => n + (t.hung ?? 0), 0),
    notApi: tests.reduce((n, t) => n + (t.notApi ?? 0), 0),
    notJsonResent: tests.reduce((n, t) => n + (t.notJsonResent ?? 0), 0),
  };
}

/** Joins the drift of every test by kind, place and what, listing the tests that saw it. */
export function collectDrift(tests: TestRecord[]): RunRecord['drift'] {
  const driftMap = new Map<string, RunRecord['drift'][number]>();
  for (const t of tests)
    for (const d of t.drift) {
      const key = driftKey(d);
      const e = driftMap.get(key) ?? { ...d, tests: [] };
      if (!e.tests.includes(t.name)) e.tests.push(t.name);
      driftMap.set(key, e);
    }
  return [...driftMap.values()];
}

/** Identity of a drift finding across runs: `kind|where|what`. */
export function driftKey(d: DriftRecord): string {
  return `${d.kind}|${d.where}|${d.what}`;
}

/** Inputs of {@link buildRunRecord}. */
export interface BuildInput {
  catalogue: Map<string, Clause>;
  tests: TestRecord[];
  target: { mode: string; baseUrl: string };
  startedAt: string;
  finishedAt: string;
  sections?: Record<string, string>;
  shard?: ShardInfo;
  /** Why the run is partial (file filter, `-t`, one shard of several); absent or empty: a full run. */
  partial?: string[];
}

/** Assembles a run record from test records and the catalogue (verdicts, summaries, drift). */
export function buildRunRecord(input: BuildInput): RunRecord {
  const clauses = clauseVerdicts(input.catalogue, input.tests, input.target.mode, input.partial);
  const record: RunRecord = {
    schemaVersion: 1,
    formatVersion: FORMAT_VERSION,
    target: input.target,
    startedAt: input.startedAt,
    finishedAt: input.finishedAt,
    summary: summariseTests(input.tests),
    clauseSummary: summariseClauses(clauses),
    requests: summariseRequests(input.tests),
    drift: collectDrift(input.tests),
    tests: input.tests,
    clauses,
    off: offSummary(clauses, input.tests),
  };
  if (input.sections) record.sections = input.sections;
  if (input.shard) record.shard = input.shard;
  if (input.partial?.length) record.partial = { reasons: input.partial };
  const ownSide = summariseOwnSide(input.tests);
  if (ownSide) record.ownSide = ownSide;
  const audits = summariseAudits(input.tests);
  if (audits) record.audits = audits;
  return record;
}

/** Exchanges each audit judged over the tests, by audit name (format 1.13); undefined when none. */
export function summariseAudits(tests: readonly TestRecord[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const t of tests) for (const [name, n] of Object.entries(t.audits ?? {})) out[name] = (out[name] ?? 0) + n;
  return Object.keys(out).length ? out : undefined;
}

/** Tests in `error` because the run's own side spoilt their evidence, per kind (format 1.12); undefined when none. */
export function summariseOwnSide(tests: TestRecord[]): Partial<Record<OwnSideKind, number>> | undefined {
  const out: Partial<Record<OwnSideKind, number>> = {};
  for (const t of tests) if (t.status === 'error' && t.ownSide) out[t.ownSide] = (out[t.ownSide] ?? 0) + 1;
  return Object.keys(out).length ? out : undefined;
}

/** The catalogue a record was judged against, rebuilt from its clause records (for merging). */
export function catalogueOf(run: RunRecord): Map<string, Clause> {
  const out = new Map<string, Clause>();
  for (const c of run.clauses) {
    const { verdict: _v, tests: _t, message: _m, skipKind: _k, ...clause } = c;
    out.set(c.id, clause);
  }
  return out;
}

/** A clause whose verdict differs between baseline and current run. `absent`: not in that run's catalogue. */
export interface ClauseChange {
  id: string;
  section: string;
  level: string;
  text: string;
  from: ClauseVerdict | 'absent';
  to: ClauseVerdict | 'absent';
  /** Current reason (failure detail or skip reason), redacted. */
  message?: string;
}

/** Requests of one suite file in the baseline and now. */
export interface RequestCountChange {
  file: string;
  before: number;
  after: number;
}

/** The comparison of a run with its baseline (stored in the record as `comparison`). */
export interface RunComparison {
  /** Which run was the baseline: its file name (as given), start time and target. */
  baseline: { file?: string; startedAt: string; target: { mode: string; baseUrl: string } };
  /** pass → fail. */
  regressions: ClauseChange[];
  /** fail → pass. */
  fixes: ClauseChange[];
  /** pass, fail or error → skip. */
  newlySkipped: ClauseChange[];
  /** Every other verdict change (e.g. pass → error, not-covered → pass, clause added or removed). */
  otherChanges: ClauseChange[];
  /** Drift seen now and not in the baseline. */
  newDrift: (DriftRecord & { tests: string[] })[];
  /** Suite files whose request count changed (files new or gone count as 0 on the missing side). */
  requestChanges: RequestCountChange[];
  /** Total requests before and after. */
  requestTotals: { before: number; after: number };
}
