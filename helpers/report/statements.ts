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
import type { SpecDoc, SpecStatement } from './spec-doc';

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
): { statements: StatementResult[]; coverage: number } {
  const byKey = new Map(links.map((l) => [l.key, l]));
  const present = new Set(clauses.map((c) => c.id));
  const statements: StatementResult[] = [];
  for (const sec of doc.sections)
    for (const st of sec.statements) {
      const key = statementKey(st);
      const l = byKey.get(key);
      if (l?.status) statements.push({ address: st.address, key, clauses: [], verdict: l.status });
      else statements.push({ address: st.address, key, clauses: (l?.clauses ?? []).filter((c) => present.has(c)), verdict: 'not-covered' });
    }
  return rejudgeStatements(statements, clauses);
}

/**
 * Judges already-linked statements again against other clause verdicts, without the spec: for a
 * merge of shard records, whose statements (keys, linked clause ids, statuses) are the same in
 * every shard. Verdicts and coverage follow the rules of {@link statementResults}.
 */
export function rejudgeStatements(
  statements: StatementResult[],
  clauses: { id: string; verdict: string }[],
): { statements: StatementResult[]; coverage: number } {
  const verdicts = new Map(clauses.map((c) => [c.id, c.verdict === 'not-testable' ? 'skip' : c.verdict]));
  let testable = 0;
  let tested = 0;
  const out = statements.map((st) => {
    if (st.verdict === 'informative' || st.verdict === 'not-testable') return st;
    testable++;
    const vs = st.clauses.filter((c) => verdicts.has(c)).map((c) => verdicts.get(c)!);
    const verdict = (WORST.find((w) => vs.includes(w)) ?? 'not-covered') as StatementVerdict;
    if (verdict !== 'not-covered') tested++;
    return { ...st, verdict };
  });
  return { statements: out, coverage: testable === 0 ? 1 : tested / testable };
}

/**
 * Adds `spec.statements` and `summary.statementCoverage` (format 1.2) to a run record in place.
 * Does nothing when the spec is not readable or the links file is missing or malformed (a report
 * is never lost for want of the links; the unit test catches a broken links file).
 */
export function attachStatements(
  record: { clauses: { id: string; verdict: string }[]; summary: { statementCoverage?: number }; spec?: { statements: StatementResult[] } },
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
}
