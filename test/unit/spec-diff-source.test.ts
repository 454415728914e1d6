/**
 * Which source a spec diff takes its tests from (issue 42, item 5): a run record is evidence of
 * coverage only when a test ran in it and it is not older than the suite files; otherwise the diff
 * lists the tests, and its first line says which source it used and why a record was passed over.
 */
import { describe, expect, it } from 'vitest';
import { utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { coverageSourceLine, renderSpecDiff, runRecordNotEvidence, type SpecDiff } from '../../helpers/report/spec-diff';
import { newestSuiteFileMs } from '../../scripts/spec-diff';
import { scratchDir } from '../support/scratch';

const at = (iso: string) => Date.parse(iso);

describe('runRecordNotEvidence', () => {
  it('a record without a test (a run stopped before its first test) is no evidence', () => {
    expect(runRecordNotEvidence({ tests: [], startedAt: '2026-11-27T10:00:00.000Z' }, at('2026-11-01T00:00:00Z'))).toBe('no test ran in it');
  });
  it('a record whose every test was skipped is no evidence', () => {
    const tests = [{ status: 'skip' }, { status: 'skip' }];
    expect(runRecordNotEvidence({ tests, startedAt: '2026-11-27T10:00:00.000Z' })).toBe('no test ran in it (all 2 skipped)');
  });
  it('a record older than the newest suite file is no evidence, and says both times', () => {
    const why = runRecordNotEvidence({ tests: [{ status: 'pass' }], startedAt: '2026-11-20T10:00:00.000Z' }, at('2026-11-27T09:00:00Z'));
    expect(why).toBe('it is older than the suite files (run started 2026-11-20T10:00:00.000Z, a suite file changed 2026-11-27T09:00:00.000Z)');
  });
  it('a record in which a test ran, started after the suite files were written, is evidence', () => {
    const tests = [{ status: 'skip' }, { status: 'fail' }];
    expect(runRecordNotEvidence({ tests, startedAt: '2026-11-27T10:00:00.000Z' }, at('2026-11-27T09:00:00Z'))).toBeUndefined();
    expect(runRecordNotEvidence({ tests, startedAt: '2026-11-27T10:00:00.000Z' })).toBeUndefined();
  });
});

describe('the first line of a spec diff', () => {
  const empty: SpecDiff = { changes: [], sectionsAdded: [], sectionsRemoved: [], sectionsRenamed: [] };

  it('names the run record it used', () => {
    const text = renderSpecDiff(empty, 'old.md', 'new.md', { kind: 'run', file: 'reports/conformance.json' });
    expect(text.split('\n')[0]).toBe('Tests from the run record reports/conformance.json.');
    expect(text.split('\n')[2]).toBe('# Spec diff: old.md → new.md');
  });
  it('names the listing, and the record it passed over with why', () => {
    const line = coverageSourceLine({ kind: 'listing', passedOver: { file: 'reports/conformance.json', why: 'no test ran in it' } });
    expect(line).toBe(
      'Tests from the catalogue listing (vitest list --project conformance, without running them); the run record reports/conformance.json was not used: no test ran in it.',
    );
    expect(renderSpecDiff(empty, 'a', 'b', { kind: 'listing' }).split('\n')[0]).toBe(
      'Tests from the catalogue listing (vitest list --project conformance, without running them).',
    );
  });
  it('without a source, starts with the heading as before', () => {
    expect(renderSpecDiff(empty, 'a', 'b').split('\n')[0]).toBe('# Spec diff: a → b');
  });
});

describe('newestSuiteFileMs', () => {
  it('is the modification time of the newest .ts file below suites/, nested folders included', () => {
    const root = scratchDir('spec-diff-suites-');
    mkdirSync(join(root, 'suites', 'webhooks'), { recursive: true });
    for (const [f, iso] of [
      ['suites/a.test.ts', '2026-11-01T00:00:00Z'],
      ['suites/webhooks/b.ts', '2026-11-25T00:00:00Z'],
      ['suites/notes.md', '2026-11-26T00:00:00Z'],
    ]) {
      writeFileSync(join(root, f), '');
      utimesSync(join(root, f), new Date(iso), new Date(iso));
    }
    expect(newestSuiteFileMs(root)).toBe(at('2026-11-25T00:00:00Z'));
    expect(newestSuiteFileMs(join(root, 'nowhere'))).toBeUndefined();
  });
});
