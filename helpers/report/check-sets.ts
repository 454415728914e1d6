/**
 * Check sets of two run records compared test by test: the evidence that a restructuring of the
 * suites or the simulator changed no verdict and no recorded check (scripts/compare-checks.ts).
 */
import type { RunRecord, TestRecord } from './model';

/** One difference between two records: the test (file › name) and what changed, in words. */
export interface CheckSetDifference {
  test: string;
  what: string;
}

/**
 * Values a run makes up (uuids, long hex or base64url tokens, timestamps) replaced by a
 * placeholder, so two runs of one target word the same check alike.
 */
export function normalizeRequirement(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/\b[0-9a-z_-]*\d[0-9a-z_-]*\b/gi, (m) => (m.length >= 12 ? '<token>' : m));
}

/** A check as compared: clause ids, requirement, outcome and level, one line of text. */
function checkKey(c: TestRecord['checks'][number]): string {
  return `${[...c.clauses].sort().join(' ')} | ${normalizeRequirement(c.requirement)} | ${c.ok ? 'ok' : 'not ok'}${c.level ? ` | ${c.level}` : ''}`;
}

/** Multiset of check keys: key → count. */
function checkCounts(t: TestRecord): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of t.checks) out.set(checkKey(c), (out.get(checkKey(c)) ?? 0) + 1);
  return out;
}

/**
 * Compares two run records test by test (tests keyed by file and full name): a test present in one
 * only, a different verdict, or a check recorded a different number of times. Durations, request
 * counts and messages are not compared.
 * @returns the number of tests seen (union of both) and every difference.
 */
export function diffCheckSets(before: RunRecord, after: RunRecord): { tests: number; differences: CheckSetDifference[] } {
  const index = (r: RunRecord) => new Map(r.tests.map((t) => [`${t.file} › ${t.name}`, t]));
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
