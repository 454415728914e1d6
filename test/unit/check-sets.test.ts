/** tools/check-sets.ts: the restructuring evidence finds what changed and nothing else. */
import { describe, expect, it } from 'vitest';
import { diffCheckSets, normalizeRequirement } from '../../tools/check-sets';
import type { RunRecord, TestRecord } from '../../helpers/report/model';

const test = (name: string, status: TestRecord['status'], checks: TestRecord['checks']): TestRecord =>
  ({ name, file: 'suites/x.test.ts', clauses: ['1/x'], status, durationMs: 1, checks, requests: 0, retries: 0, drift: [] }) as TestRecord;
const run = (...tests: TestRecord[]) => ({ tests }) as unknown as RunRecord;
const ok = { clauses: ['1/x'], requirement: 'call 0b7c2f7e-1d2a-4c3b-9d4e-5f6a7b8c9d0e answers 200', ok: true };

describe('check sets of two runs', () => {
  it('sees no difference between runs that differ only in made-up ids', () => {
    const other = { ...ok, requirement: 'call 11111111-2222-4333-8444-555555555555 answers 200' };
    expect(diffCheckSets(run(test('a', 'pass', [ok])), run(test('a', 'pass', [other])))).toEqual({ tests: 1, differences: [] });
  });
  it('reports a changed verdict, a lost check, a doubled check and a missing test', () => {
    const { differences } = diffCheckSets(
      run(test('a', 'pass', [ok]), test('b', 'pass', [ok]), test('c', 'pass', [])),
      run(test('a', 'fail', [ok]), test('b', 'pass', [ok, ok])),
    );
    expect(differences.map((d) => `${d.test}: ${d.what.split(':')[0]}`)).toEqual([
      'suites/x.test.ts › a: verdict pass → fail',
      'suites/x.test.ts › b: check recorded 1 → 2 times',
      'suites/x.test.ts › c: only before',
    ]);
  });
  it('by name, pairs a test moved to another file and still sees its changes', () => {
    const moved = { ...test('a', 'fail', [ok]), file: 'suites/y.test.ts' };
    expect(diffCheckSets(run(test('a', 'pass', [ok])), run(moved)).differences.map((d) => `${d.test}: ${d.what}`)).toEqual([
      'suites/x.test.ts › a: only before',
      'suites/y.test.ts › a: only after',
    ]);
    expect(diffCheckSets(run(test('a', 'pass', [ok])), run(moved), { byName: true }).differences.map((d) => `${d.test}: ${d.what}`)).toEqual([
      'a: verdict pass → fail',
    ]);
  });
  it('by name, refuses a record holding two tests of one name', () => {
    const twice = run(test('a', 'pass', [ok]), { ...test('a', 'pass', [ok]), file: 'suites/y.test.ts' });
    expect(() => diffCheckSets(twice, twice, { byName: true })).toThrow(/two tests named "a"/);
  });
  it('keeps short numbers (an attempt count) and hides long tokens', () => {
    expect(normalizeRequirement('attempt 6 of delivery dlv_8f3a9c2b7d1e4f60')).toBe('attempt 6 of delivery <token>');
  });
  it('hides a measured time in ms, so one run reading 5 ms and another 6 ms word the check alike', () => {
    expect(normalizeRequirement('GET /x at most 5 ms after the call ended')).toBe(normalizeRequirement('GET /x at most 16.5 ms after the call ended'));
  });
  it('compares a check of level must as one with no level (must is the default)', () => {
    const musts = run(test('a', 'pass', [{ ...ok, level: 'must' }]));
    expect(diffCheckSets(musts, run(test('a', 'pass', [ok]))).differences).toEqual([]);
  });
});
