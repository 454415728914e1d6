/**
 * Check sets of two run records compared test by test: the evidence that a restructuring of the
 * suites or the simulator changed no verdict and no recorded check (scripts/compare-checks.ts).
 */
import type { RunRecord, TestRecord } from '../helpers/report/model';

/** One difference between two records: the test (file › name, or the name alone when compared by name) and what changed, in words. */
export interface CheckSetDifference {
  test: string;
  what: string;
}

/**
 * Values a run makes up (uuids, long hex or base64url tokens, timestamps) and times it measured
 * ("at most 5 ms after the call ended") replaced by a placeholder, so two runs of one target word
 * the same check alike.
 */
export function normalizeRequirement(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/\b\d+(\.\d+)? ms\b/g, '<n> ms')
    .replace(/\b[0-9a-z_-]*\d[0-9a-z_-]*\b/gi, (m) => (m.length >= 12 ? '<token>' : m));
}

/**
 * A check as compared: clause ids, requirement, outcome and level, one line of text. A check with
 * no level is a `must` check (helpers/base/meta.ts), so `must` and no level compare equal: the
 * audits once wrote the level out, the engine leaves it off.
 */
function checkKey(c: TestRecord['checks'][number]): string {
  const level = c.level && c.level !== 'must' ? ` | ${c.level}` : '';
  return `${[...c.clauses].sort().join(' ')} | ${normalizeRequirement(c.requirement)} | ${c.ok ? 'ok' : 'not ok'}${level}`;
}

/** Multiset of check keys: key → count. */
function checkCounts(t: TestRecord): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of t.checks) {
    const key = checkKey(c);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** How {@link diffCheckSets} pairs the tests of two records. */
export interface CheckSetOptions {
  /**
   * Pair tests by their full name (describe blocks and test name) alone, not by file and name: for
   * a restructuring that moves tests between files and keeps their names.
   * @throws Error from {@link diffCheckSets} when a name occurs twice in one record.
   */
  byName?: boolean;
}

/**
 * Compares two run records test by test (tests keyed by file and full name, or by full name alone
 * with `byName`): a test present in one only, a different verdict, or a check recorded a different
 * number of times. Durations, request counts and messages are not compared.
 * @returns the number of tests seen (union of both) and every difference.
 * @throws Error when `byName` is set and a record holds two tests of one name (pairing would be a guess).
 */
export function diffCheckSets(before: RunRecord, after: RunRecord, opts: CheckSetOptions = {}): { tests: number; differences: CheckSetDifference[] } {
  const keyOf = (t: TestRecord) => (opts.byName ? t.name : `${t.file} › ${t.name}`);
  const index = (r: RunRecord) => {
    const m = new Map<string, TestRecord>();
    for (const t of r.tests) {
      if (m.has(keyOf(t))) throw new Error(`two tests named ${JSON.stringify(keyOf(t))} (${m.get(keyOf(t))!.file}, ${t.file}): compare by file`);
      m.set(keyOf(t), t);
    }
    return m;
  };
  const a = index(before);
  const b = index(after);
  const differences: CheckSetDifference[] = [];
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  for (const test of names) {
    const x = a.get(test);
    const y = b.get(test);
    if (!x || !y) {
      differences.push({ test, what: x ? 'only before' : 'only after' });
      continue;
    }
    if (x.status !== y.status) differences.push({ test, what: `verdict ${x.status} → ${y.status}` });
    const cx = checkCounts(x);
    const cy = checkCounts(y);
    for (const key of [...new Set([...cx.keys(), ...cy.keys()])].sort()) {
      const n = cx.get(key) ?? 0;
      const m = cy.get(key) ?? 0;
      if (n !== m) differences.push({ test, what: `check recorded ${n} → ${m} times: ${key}` });
    }
  }
  return { tests: names.length, differences };
}
