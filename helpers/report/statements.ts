/**
 * Statement-level traceability: every statement of the spec, as
 * `spec-doc.ts` reads it, is linked from `spec/statements.json` to the clauses that test it, or
 * marked `informative` / `not-testable` with a reason. Links are keyed by {@link statementKey},
 * built from the same stable keys the spec diff pairs on (row: first cell; else a fingerprint of
 * the text), so an edit elsewhere in the spec never breaks a link.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpecDoc, SpecStatement } from '../spec/spec-doc';

/** Default location of the statement links file. */
export const STATEMENTS_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'spec', 'statements.json');

/** One link of `spec/statements.json`. Exactly one of `clauses` (non-empty) or `status` + `reason`. */
export interface StatementLink {
  /** {@link statementKey} of the statement. */
  key: string;
  /** Spec address (`5.6`), for the reader; the key is what matches. */
  address: string;
  /** First 80 characters of the statement, for the reader. */
  excerpt: string;
  /** Clause ids that test the statement. */
  clauses?: string[];
  /** Set when no clause tests it. */
  status?: 'informative' | 'not-testable';
  /** Why it is informative or not testable (required with `status`). */
  reason?: string;
  /**
   * The plausible ways an implementation breaks the statement (testable statements only), each
   * covered by a simulator fault and the clause whose tests kill it, or explained. Checked by
   * {@link checkWays}; counted by the strength figure ({@link rejudgeStatements}).
   */
  ways?: Way[];
}

/**
 * One way an implementation breaks a statement: either `fault` + `test` (covered: the fault of
 * `simulator/src/faults/` breaks it this way, and a test naming the catalogue clause `test`,
 * one of the fault's clauses, kills it in the mutation run) or `explained` (why no test can or
 * may see it).
 */
export interface Way {
  /** How the statement is broken; when absent, the fault's own description says it. */
  way?: string;
  /** The family the way belongs to: cardinality, scope, one or all, units, paths, credentials, value. */
  family?: string;
  /** The layer under an API whose defect breaks the statement this way (tools/causes.ts `CAUSES`). */
  cause?: string;
  /** Name of the simulator fault that breaks the statement this way. */
  fault?: string;
  /** Catalogue clause id whose tests kill `fault` (the fault must name it). */
  test?: string;
  /** `unobservable: <why>` or `allowed: <the other careful reading>`. */
  explained?: string;
  /** The way can only be broken on a live tenant: the clause `test` must run there too. */
  live?: boolean;
}

/** What {@link checkWays} needs to know of a fault: its name and the clause ids it breaks. */
export interface FaultRef {
  name: string;
  clauses: string[];
}

/**
 * Checks the `ways` of every link: each testable statement lists at least one way; each way is
 * covered (a known fault, and a `test` clause the fault names that the catalogue holds as
 * testable somewhere) or explained (`unobservable:` or `allowed:` with a reason, and a `way`
 * saying what); a `live` way's test clause targets live tenants; statements that are
 * informative or not testable list none. `catalogue` maps clause id → its targets. Also reports
 * every fault no way lists, so the catalogue and the ways grow together. Never throws; answers
 * the problems, each naming the statement and what to fix.
 */
export function checkWays(links: StatementLink[], faults: FaultRef[], catalogue: Map<string, { targets: string[] }>): string[] {
  const problems: string[] = [];
  const byName = new Map(faults.map((f) => [f.name, f]));
  const listed = new Set<string>();
  for (const l of links) {
    const ways = l.ways ?? [];
    if (l.status) {
      if (ways.length) problems.push(`statement ${l.key} is ${l.status} but lists ways: remove them`);
      continue;
    }
    if (!ways.length) problems.push(`statement ${l.key} lists no ways: add "ways" (a fault and its test, or an explanation)`);
    for (const [i, w] of ways.entries()) {
      const at = `statement ${l.key} way ${i + 1}`;
      if (w.explained !== undefined) {
        if (w.fault || w.test) problems.push(`${at}: is both explained and covered: keep one`);
        if (!/^(unobservable|allowed): \S/.test(w.explained)) problems.push(`${at}: "explained" must start "unobservable: " or "allowed: " and say why`);
        if (!w.way?.trim()) problems.push(`${at}: an explained way needs "way" saying how the statement would be broken`);
        continue;
      }
      const f = w.fault ? byName.get(w.fault) : undefined;
      if (!w.fault || !w.test) {
        problems.push(`${at}: neither covered ("fault" and "test") nor explained`);
        continue;
      }
      if (!f) {
        problems.push(`${at}: unknown fault ${w.fault}: add it to simulator/src/faults/ or fix the name`);
        continue;
      }
      listed.add(f.name);
      if (!f.clauses.includes(w.test)) problems.push(`${at}: fault ${f.name} does not name clause ${w.test}, so no test of it can kill the fault`);
      const targets = catalogue.get(w.test)?.targets;
      if (!targets) problems.push(`${at}: ${w.test} is not a catalogue clause`);
      else if (!targets.length) problems.push(`${at}: ${w.test} is not testable anywhere, so it proves nothing`);
      else if (w.live && !targets.includes('live')) problems.push(`${at}: the way can only be broken on a live tenant, but ${w.test} does not run there`);
    }
  }
  for (const f of faults) if (!listed.has(f.name)) problems.push(`fault ${f.name} is listed by no way: add it to the ways of the statement it breaks`);
  return problems;
}

/**
 * Stable key of a statement: `§<section>/<kind>/<key or 12-hex sha1 of the text>`.
 * Rows key by first cell (as spec-diff pairs them); items and sentences by their text.
 */
export function statementKey(s: SpecStatement): string {
  const id = s.kind === 'row' && s.key ? s.key : createHash('sha1').update(s.text).digest('hex').slice(0, 12);
  return `§${s.section}/${s.kind}/${id}`;
}

/** Reads `spec/statements.json` (throws on unreadable or malformed JSON). */
export function loadStatementLinks(path: string = STATEMENTS_PATH): StatementLink[] {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(doc?.statements)) throw new Error(`${path}: expected { "statements": [...] }`);
  return doc.statements as StatementLink[];
}

/** Result of {@link checkStatementLinks}. */
export interface StatementCheck {
  /** Human-readable problems, each saying exactly what to add or remove. Empty when consistent. */
  problems: string[];
  /** Statements that are neither informative nor not-testable. */
  testable: number;
  /** Testable statements linked to at least one existing clause. */
  linked: number;
  /** linked / testable, 0..1 (1 when nothing is testable). */
  coverage: number;
}

/**
 * Checks links against the parsed spec and the clause ids: every statement linked, no link to a
 * missing statement or clause, every status with a reason. Never throws.
 */
export function checkStatementLinks(doc: SpecDoc, links: StatementLink[], clauseIds: Set<string>): StatementCheck {
  const problems: string[] = [];
  const byKey = new Map<string, StatementLink>();
  for (const l of links) {
    if (byKey.has(l.key)) problems.push(`duplicate link for statement ${l.key}: keep one entry`);
    byKey.set(l.key, l);
  }
  const seen = new Set<string>();
  let testable = 0;
  let linked = 0;
  for (const sec of doc.sections)
    for (const st of sec.statements) {
      const key = statementKey(st);
      seen.add(key);
      const l = byKey.get(key);
      if (!l) {
        problems.push(
          `statement not linked: add to spec/statements.json {"key": ${JSON.stringify(key)}, "address": ${JSON.stringify(st.address)}, "excerpt": ${JSON.stringify(st.text.slice(0, 80))}, "clauses": ["<clause id>"]} (or "status": "informative"|"not-testable" with a "reason")`,
        );
        testable++;
        continue;
      }
      if (l.status) {
        if (!l.reason?.trim()) problems.push(`statement ${key} is ${l.status} without a reason: add "reason"`);
        continue;
      }
      testable++;
      const cl = l.clauses ?? [];
      if (cl.length === 0) problems.push(`statement ${key} has neither clauses nor a status: add "clauses" or "status"+"reason"`);
      const missing = cl.filter((c) => !clauseIds.has(c));
      for (const c of missing) problems.push(`statement ${key} links to unknown clause ${c}: fix the id or add the clause to spec/clauses/`);
      if (cl.length > 0 && missing.length < cl.length) linked++;
    }
  for (const l of links) if (!seen.has(l.key)) problems.push(`link ${l.key} (§${l.address}) points at no statement of the spec: remove it or re-key it`);
  return { problems, testable, linked, coverage: testable === 0 ? 1 : linked / testable };
}

/**
 * Section-wide links: two or more statements of one section (address) that each name every
 * clause of that section, when it has more than `atLeast` clauses (default 3). That is the mark of
 * links seeded per section, which say nothing about any one statement; a section made of a single
 * statement may rightly name all its clauses. Answers the statement keys.
 * `clauseSections` maps clause id → section.
 */
export function sectionWideLinks(links: StatementLink[], clauseSections: Map<string, string>, atLeast = 3): string[] {
  const bySection = new Map<string, Set<string>>();
  for (const [id, section] of clauseSections) {
    if (!bySection.has(section)) bySection.set(section, new Set());
    bySection.get(section)!.add(id);
  }
  const whole = links.filter((l) => {
    const all = bySection.get(l.address);
    return !!l.clauses && !!all && all.size > atLeast && [...all].every((id) => l.clauses!.includes(id));
  });
  return whole.filter((l) => whole.some((o) => o !== l && o.address === l.address)).map((l) => l.key);
}

/** Verdict of one statement in a run: the worst verdict of its clauses, or its status. */
export type StatementVerdict = 'pass' | 'fail' | 'error' | 'skip' | 'not-covered' | 'informative' | 'not-testable';

/** One statement's result in a run record (`spec.statements[]`, format 1.2). */
export interface StatementResult {
  address: string;
  key: string;
  clauses: string[];
  verdict: StatementVerdict;
  /**
   * Its listed ways (format 1.7): the test clause of each covered way (repeats kept) and how many
   * are explained. Absent for statements that are not testable.
   */
  ways?: { tests: string[]; explained: number };
  /** Every listed way covered by a passing test clause, or explained (format 1.7; testable statements only). */
  strong?: boolean;
}

/** Worst first: a statement takes the first verdict of this list that any of its clauses has. */
const WORST: readonly string[] = ['fail', 'error', 'not-covered', 'skip', 'pass'];

/**
 * Per-statement verdicts for a run: each statement of `doc` with its linked clauses' worst verdict
 * (`not-covered` when unlinked or no linked clause is in the run; a clause judged `not-testable`
 * for this target counts as `skip`). Also returns coverage = tested statements / testable ones.
 */
export function statementResults(
  doc: SpecDoc,
  links: StatementLink[],
  clauses: { id: string; verdict: string }[],
): { statements: StatementResult[]; coverage: number; strength: number } {
  const byKey = new Map(links.map((l) => [l.key, l]));
  const present = new Set(clauses.map((c) => c.id));
  const statements: StatementResult[] = [];
  for (const sec of doc.sections)
    for (const st of sec.statements) {
      const key = statementKey(st);
      const l = byKey.get(key);
      if (l?.status) statements.push({ address: st.address, key, clauses: [], verdict: l.status });
      else {
        const ways = l?.ways ?? [];
        statements.push({
          address: st.address,
          key,
          clauses: (l?.clauses ?? []).filter((c) => present.has(c)),
          verdict: 'not-covered',
          ways: {
            tests: ways.flatMap((w) => (w.explained === undefined && w.test ? [w.test] : [])),
            explained: ways.filter((w) => w.explained !== undefined).length,
          },
        });
      }
    }
  return rejudgeStatements(statements, clauses);
}

/**
 * Judges already-linked statements again against other clause verdicts, without the spec: for a
 * merge of shard records, whose statements (keys, linked clause ids, statuses) are the same in
 * every shard. Verdicts and coverage follow the rules of {@link statementResults}.
 *
 * Strength (format 1.7) = strong statements / testable statements, where a testable statement is
 * strong when it lists at least one way and each of its ways is explained or covered by a test
 * clause that passed in this run (the fault of a covered way exists and names that clause: the
 * unit test of `spec/statements.json` keeps that true; the mutation run proves the kill). A
 * statement whose ways are not recorded (a record older than 1.7) is not strong.
 */
export function rejudgeStatements(
  statements: StatementResult[],
  clauses: { id: string; verdict: string }[],
): { statements: StatementResult[]; coverage: number; strength: number } {
  const verdicts = new Map(clauses.map((c) => [c.id, c.verdict === 'not-testable' ? 'skip' : c.verdict]));
  let testable = 0;
  let tested = 0;
  let strong = 0;
  const out = statements.map((st) => {
    if (st.verdict === 'informative' || st.verdict === 'not-testable') return st;
    testable++;
    const vs = st.clauses.filter((c) => verdicts.has(c)).map((c) => verdicts.get(c)!);
    const verdict = (WORST.find((w) => vs.includes(w)) ?? 'not-covered') as StatementVerdict;
    if (verdict !== 'not-covered') tested++;
    const ways = st.ways;
    const isStrong = !!ways && ways.tests.length + ways.explained > 0 && ways.tests.every((c) => verdicts.get(c) === 'pass');
    if (isStrong) strong++;
    return ways ? { ...st, verdict, strong: isStrong } : { ...st, verdict };
  });
  return { statements: out, coverage: testable === 0 ? 1 : tested / testable, strength: testable === 0 ? 1 : strong / testable };
}

/**
 * Adds `spec.statements`, `summary.statementCoverage` (format 1.2) and `summary.statementStrength`
 * (format 1.7) to a run record in place.
 * Does nothing when the spec is not readable or the links file is missing or malformed (a report
 * is never lost for want of the links; the unit test catches a broken links file).
 */
export function attachStatements(
  record: {
    clauses: { id: string; verdict: string }[];
    summary: { statementCoverage?: number; statementStrength?: number };
    spec?: { statements: StatementResult[] };
  },
  doc: SpecDoc | undefined,
  path: string = STATEMENTS_PATH,
): void {
  if (!doc) return;
  let links: StatementLink[];
  try {
    links = loadStatementLinks(path);
  } catch {
    return;
  }
  const r = statementResults(doc, links, record.clauses);
  record.spec = { statements: r.statements };
  record.summary.statementCoverage = Math.round(r.coverage * 10000) / 10000;
  record.summary.statementStrength = Math.round(r.strength * 10000) / 10000;
}

/** What {@link wayProofs} needs of a mutation run's fault row (tools/mutation/matrix.ts `FaultResult`). */
export interface FaultRunRef {
  name: string;
  verdict: string;
  /** Killers, each with the clauses its failure names. */
  killedBy: { clauses: string[] }[];
  /** The run stopped at the first kill, so other killers are not known. */
  stoppedEarly?: boolean;
}

/** A covered way a mutation run did not prove, with why. */
export interface UnprovenWay {
  key: string;
  fault: string;
  test: string;
  /** `not killed`, or `killed by no test of <test>`, or `not shown` (a first-kill run stopped at a killer of another clause). */
  reason: string;
}

/**
 * Checks the covered ways of `links` against a mutation run: a way (fault F, clause T) is proven
 * when F was killed by a failing test naming T. Ways whose fault was not in the run are left
 * out. In a first-kill run a killer of another clause leaves the way `not shown`
 * (`--exhaustive` lists every killer). Never throws.
 */
export function wayProofs(links: StatementLink[], runs: FaultRunRef[]): { proven: number; unproven: UnprovenWay[]; notShown: UnprovenWay[] } {
  const byName = new Map(runs.map((r) => [r.name, r]));
  let proven = 0;
  const unproven: UnprovenWay[] = [];
  const notShown: UnprovenWay[] = [];
  for (const l of links)
    for (const w of l.ways ?? []) {
      if (!w.fault || !w.test) continue;
      const r = byName.get(w.fault);
      if (!r) continue;
      const base = { key: l.key, fault: w.fault, test: w.test };
      if (r.verdict !== 'killed') unproven.push({ ...base, reason: 'not killed' });
      else if (r.killedBy.some((k) => k.clauses.includes(w.test!))) proven++;
      else if (r.stoppedEarly) notShown.push({ ...base, reason: 'not shown (the run stopped at a killer of another clause)' });
      else unproven.push({ ...base, reason: `killed by no test of ${w.test}` });
    }
  return { proven, unproven, notShown };
}
