/**
 * Spec diff: the current spec against a copy edited by test/fixtures/report/spec-edits.json
 * lists exactly the edited statements as added, removed or changed, each with the clauses linked to
 * it (or, unlinked, the clauses of its section) and the tests covering them, and closes with the
 * statements left without a test; and the parser finds every section of the spec.
 */
import { describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { diffSpecs, renderSpecDiff, similarity, statementsWithoutTest } from '../../helpers/report/spec-diff';
import { statementKey, type StatementLink } from '../../helpers/report/statements';
import { parseSpec, SPEC_NEEDED, SPEC_PATH } from '../../helpers/spec/spec-doc';
import { writeRunRecord } from '../../helpers/report/record-io';
import { FIXTURE_CLAUSES, fixtureRun } from '../fixtures/report/records';
import { scratchDir } from '../support/scratch';

const HAS_SPEC = existsSync(SPEC_PATH);
if (!HAS_SPEC) console.warn(`spec-diff.test.ts: ${SPEC_NEEDED}`);
const spec = HAS_SPEC ? readFileSync(SPEC_PATH, 'utf8') : '';
const { edits } = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'report', 'spec-edits.json'), 'utf8')) as {
  edits: { find: string; replace: string; expect: { kind: string; address: string; statementKind: string } }[];
};

function edited(): string {
  let text = spec;
  for (const e of edits) {
    expect(text.split(e.find).length - 1, `fixture edit no longer matches the spec once: ${e.find.slice(0, 60)}`).toBe(1);
    text = text.replace(e.find, e.replace);
  }
  return text;
}

const run = fixtureRun({ fail: ['5.4/rotation-immediate'] });
const testsOf = (id: string) => run.clauses.find((c) => c.id === id)?.tests ?? [];

describe.skipIf(!HAS_SPEC)(`spec diff${HAS_SPEC ? '' : ` (${SPEC_NEEDED})`}`, () => {
  test('the parser finds every numbered section of the spec and its statements', () => {
    const doc = parseSpec(spec);
    const leaves = doc.sections.filter((s) => s.leaf).map((s) => s.number);
    expect(leaves).toEqual([
      '1',
      '2.1',
      '2.2',
      '2.3',
      '2.4',
      '2.5',
      '2.6',
      '2.7',
      '2.8',
      '2.9',
      '2.10',
      '3',
      '4.1',
      '4.2',
      '4.3',
      '4.4',
      '4.5',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
    // §2.2 table: one row per field (42 response properties plus request-only fields)
    expect(doc.sections.find((s) => s.number === '2.2')!.statements.filter((s) => s.kind === 'row').length).toBeGreaterThanOrEqual(42);
    // the table after "6. Outcomes:" belongs to §5.6
    expect(doc.sections.find((s) => s.number === '5')!.statements.filter((s) => s.address === '5.6' && s.kind === 'row')).toHaveLength(4);
  });

  test('the same document gives no change', () => {
    expect(diffSpecs(spec, spec, FIXTURE_CLAUSES).changes).toEqual([]);
  });

  test('an edited copy gives exactly the edited statements, with kind, address and statement kind', () => {
    const d = diffSpecs(spec, edited(), FIXTURE_CLAUSES, testsOf);
    const got = d.changes
      .map((c) => ({ kind: c.kind, address: c.address, statementKind: c.statementKind }))
      .sort((a, b) => `${a.address}${a.kind}`.localeCompare(`${b.address}${b.kind}`));
    const want = edits.map((e) => e.expect).sort((a, b) => `${a.address}${a.kind}`.localeCompare(`${b.address}${b.kind}`));
    expect(got).toEqual(want);
    const rotation = d.changes.find((c) => c.address === '5.4')!;
    expect(rotation.before).toContain('immediately');
    expect(rotation.after).toContain('24-hour grace period');
    expect(rotation.clauseScope).toBe('address');
    expect(rotation.unlinked).toBe(true);
    expect(rotation.clauses).toEqual([
      {
        id: '5.4/rotation-immediate',
        level: 'must',
        text: 'A rotated key is refused at once',
        tests: ['A rotated key is refused at once [5.4/rotation-immediate]'],
      },
    ]);
    const errors = d.changes.find((c) => c.address === '7')!;
    expect(errors.after).toBe('422 | UNPROCESSABLE_ENTITY | body is valid JSON but semantically wrong');
    expect(errors.clauses.map((c) => c.id)).toEqual(['7/error-envelope']);
    // no clause at §2.3 in the fixture catalogue and none in the section either
    expect(d.changes.find((c) => c.address === '2.3')!.clauses).toEqual([]);
  });

  test('the rendered diff names each change, its clauses and their tests', () => {
    const text = renderSpecDiff(diffSpecs(spec, edited(), FIXTURE_CLAUSES, testsOf), 'old.md', 'new.md');
    expect(text).toContain('3 changed, 2 added, 1 removed statements');
    expect(text).toContain('## changed item in §5.4');
    expect(text).toContain('- 5.4/rotation-immediate (must) A rotated key is refused at once — 1 tests');
    expect(text).toContain('No catalogue clause in §2.3: consider adding one.');
    expect(text).toContain('Not linked yet; candidate clauses of §5.4 (1):');
    expect(text).toContain('## Statements left without a test');
  });

  test('a changed statement takes the clauses linked to its key; an added one is unlinked and listed as without a test', () => {
    const rotationStatement = parseSpec(spec)
      .sections.flatMap((x) => x.statements)
      .find((st) => st.address === '5.4')!;
    const links: StatementLink[] = [
      { key: statementKey(rotationStatement), address: '5.4', excerpt: '', clauses: ['5.4/rotation-immediate', '7/error-envelope'] },
    ];
    const d = diffSpecs(spec, edited(), FIXTURE_CLAUSES, testsOf, links);
    const rotation = d.changes.find((c) => c.address === '5.4')!;
    expect(rotation.clauseScope).toBe('statement');
    expect(rotation.key).toBe(links[0].key);
    expect(rotation.clauses.map((c) => c.id).sort()).toEqual(['5.4/rotation-immediate', '7/error-envelope']);
    expect(rotation.unlinked).toBeUndefined();
    const added = d.changes.filter((c) => c.kind === 'added');
    expect(added.length).toBeGreaterThan(0);
    for (const a of added) expect(a.unlinked).toBe(true);
    const without = statementsWithoutTest(d);
    expect(without).toEqual(expect.arrayContaining(added));
    expect(without).not.toContain(rotation);
    const text = renderSpecDiff(d, 'old.md', 'new.md');
    expect(text).toContain('Clauses linked to this statement (');
    expect(text).toContain('## Statements left without a test');
    expect(text).toContain(`— not linked: add {"key": ${JSON.stringify(added[0].key)}} to spec/statements.json`);
  });

  test('a statement linked as informative carries its status and is not listed as untested', () => {
    const first = parseSpec(spec)
      .sections.flatMap((x) => x.statements)
      .find((st) => st.address === '5.4')!;
    const d = diffSpecs(spec, edited(), FIXTURE_CLAUSES, testsOf, [
      { key: statementKey(first), address: '5.4', excerpt: '', status: 'informative', reason: 'x' },
    ]);
    const rotation = d.changes.find((c) => c.address === '5.4')!;
    expect(rotation.status).toBe('informative');
    expect(statementsWithoutTest(d)).not.toContain(rotation);
    expect(renderSpecDiff(d, 'a', 'b')).toContain('Linked as informative');
  });

  test('similarity pairs rewordings, not unrelated statements', () => {
    expect(similarity('Rotation invalidates the previous key immediately.', 'Rotation invalidates the previous key after a day.')).toBeGreaterThan(0.5);
    expect(similarity('Keys are secrets.', 'The calls API is read-only.')).toBeLessThan(0.5);
  });

  test('npm run spec-diff prints the diff with the tests from a run record newer than the suite files', async () => {
    const dir = scratchDir('spec-diff-');
    writeFileSync(join(dir, 'old.md'), spec);
    writeFileSync(join(dir, 'new.md'), edited());
    writeRunRecord({ ...run, startedAt: new Date().toISOString() }, join(dir, 'run'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/spec-diff.ts', join(dir, 'old.md'), join(dir, 'new.md'), '--run', join(dir, 'run', 'conformance.json'), '--json'],
      { cwd: process.cwd() },
    );
    const out = JSON.parse(stdout);
    expect(out.changes).toHaveLength(edits.length);
    expect(out.sourceKind).toBe('run');
    expect(out.source).toMatch(/^Tests from the run record /);
  }, 60_000);

  test('after a run that ran no test, npm run spec-diff lists the tests instead, and its first line says so', async () => {
    const dir = scratchDir('spec-diff-');
    writeFileSync(join(dir, 'old.md'), spec);
    writeFileSync(join(dir, 'new.md'), edited());
    writeRunRecord({ ...run, tests: [], startedAt: new Date().toISOString() }, join(dir, 'run'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/spec-diff.ts', join(dir, 'old.md'), join(dir, 'new.md'), '--run', join(dir, 'run', 'conformance.json')],
      { cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 },
    );
    expect(stdout.split('\n')[0]).toMatch(
      /^Tests from the catalogue listing \(vitest list --project conformance, without running them\); the run record .*conformance\.json was not used: no test ran in it\.$/,
    );
    // The changed §5.4 rotation rule is covered by the listed tests, not "no test".
    expect(stdout).toMatch(/- 5\.4\/rotated-key-invalid \(must\) .* — \d+ tests/);
  }, 120_000);
});
