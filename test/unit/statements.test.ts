/**
 * Statement-level traceability: every statement of the spec is linked from
 * spec/statements.json (clauses, or informative / not-testable with a reason), and no link points
 * at nothing. Fails with the exact entry to add when the spec gains a statement (spec drift).
 */
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../../helpers/spec/catalogue';
import { parseSpec, readSpec } from '../../helpers/spec/spec-doc';
import {
  checkStatementLinks,
  loadStatementLinks,
  rejudgeStatements,
  sectionWideLinks,
  statementKey,
  type StatementLink,
  type StatementResult,
} from '../../helpers/report/statements';

const spec = readSpec();
const clauseIds = new Set(loadCatalogue().keys());

describe('spec/statements.json', () => {
  test.skipIf(!spec)('links every statement of the spec, and every link to an existing clause', () => {
    const r = checkStatementLinks(spec!, loadStatementLinks(), clauseIds);
    console.log(`statement coverage: ${r.linked}/${r.testable} testable statements linked (${(r.coverage * 100).toFixed(1)}%)`);
    expect(r.problems).toEqual([]);
    expect(r.coverage).toBe(1);
  });

  test('links per statement, not per section: no two statements of a section each list all its clauses', () => {
    const sections = new Map([...loadCatalogue().values()].map((c) => [c.id, c.section]));
    expect(sectionWideLinks(loadStatementLinks(), sections)).toEqual([]);
  });
});

describe('sectionWideLinks', () => {
  const sections = new Map([
    ['1/a', '1'],
    ['1/b', '1'],
    ['1/c', '1'],
    ['1/d', '1'],
    ['2/x', '2'],
  ]);
  const link = (key: string, address: string, clauses: string[]): StatementLink => ({ key, address, excerpt: '', clauses });
  test('flags statements of one section that all name every clause of it', () => {
    const all = ['1/a', '1/b', '1/c', '1/d'];
    expect(sectionWideLinks([link('k1', '1', all), link('k2', '1', all), link('k3', '1', ['1/a']), link('k4', '2', ['2/x'])], sections)).toEqual(['k1', 'k2']);
  });
  test('a section of one statement may name all its clauses', () => {
    expect(sectionWideLinks([link('k1', '1', ['1/a', '1/b', '1/c', '1/d']), link('k2', '1', ['1/a', '1/c'])], sections)).toEqual([]);
  });
});

describe('checkStatementLinks', () => {
  const doc = parseSpec('# T\n\n## 1. One\n\nA must hold. B is informative.\n\n| Code | Meaning |\n|---|---|\n| 401 | unauth |\n');
  const sts = doc.sections.flatMap((s) => s.statements);
  const ok: StatementLink[] = sts.map((s, i) =>
    i === 1
      ? { key: statementKey(s), address: s.address, excerpt: '', status: 'informative', reason: 'example' }
      : { key: statementKey(s), address: s.address, excerpt: '', clauses: ['1/a'] },
  );
  const ids = new Set(['1/a']);

  test('consistent links give no problems and full coverage', () => {
    expect(sts.length).toBeGreaterThanOrEqual(3);
    const r = checkStatementLinks(doc, ok, ids);
    expect(r.problems).toEqual([]);
    expect(r.testable).toBe(sts.length - 1);
    expect(r.coverage).toBe(1);
  });
  test('an unlinked statement is reported with the entry to add', () => {
    const r = checkStatementLinks(doc, ok.slice(1), ids);
    expect(r.problems.join('\n')).toContain(`add to spec/statements.json {"key": ${JSON.stringify(ok[0].key)}`);
  });
  test('a link to an unknown clause or to no statement is reported', () => {
    const r = checkStatementLinks(
      doc,
      [...ok.map((l, i) => (i === 0 ? { ...l, clauses: ['9/nope'] } : l)), { key: '§9/sentence/x', address: '9', excerpt: '', clauses: ['1/a'] }],
      ids,
    );
    expect(r.problems.some((p) => p.includes('unknown clause 9/nope'))).toBe(true);
    expect(r.problems.some((p) => p.includes('§9/sentence/x') && p.includes('no statement'))).toBe(true);
    expect(r.coverage).toBeLessThan(1);
  });
  test('a status without a reason is reported', () => {
    const r = checkStatementLinks(
      doc,
      ok.map((l) => (l.status ? { ...l, reason: '' } : l)),
      ids,
    );
    expect(r.problems.some((p) => p.includes('without a reason'))).toBe(true);
  });
  test('row keys survive a text edit of the row; sentence keys follow the text', () => {
    const edited = parseSpec('# T\n\n## 1. One\n\nIntro added. A must hold. B is informative.\n\n| Code | Meaning |\n|---|---|\n| 401 | unauthenticated |\n');
    const keys = new Set(edited.sections.flatMap((s) => s.statements).map(statementKey));
    for (const l of ok) expect(keys.has(l.key)).toBe(true);
  });
});

describe('statement strength (rejudgeStatements)', () => {
  const st = (key: string, ways?: { tests: string[]; explained: number }): StatementResult => ({
    address: '1',
    key,
    clauses: ['1/a'],
    verdict: 'not-covered',
    ...(ways ? { ways } : {}),
  });
  test('a statement is strong when every listed way is explained or covered by a passing clause', () => {
    const r = rejudgeStatements(
      [
        st('all-pass', { tests: ['1/a', '1/b'], explained: 1 }),
        st('one-skipped', { tests: ['1/a', '1/c'], explained: 0 }),
        st('explained-only', { tests: [], explained: 2 }),
        st('no-ways', { tests: [], explained: 0 }),
        st('not-recorded'),
        { address: '1', key: 'info', clauses: [], verdict: 'informative' },
      ],
      [
        { id: '1/a', verdict: 'pass' },
        { id: '1/b', verdict: 'pass' },
        { id: '1/c', verdict: 'skip' },
      ],
    );
    expect(r.statements.filter((s) => s.strong).map((s) => s.key)).toEqual(['all-pass', 'explained-only']);
    expect(r.strength).toBeCloseTo(2 / 5);
    expect(r.coverage).toBe(1);
  });
});
