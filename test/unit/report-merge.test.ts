/**
 * Shard merge: `npm run report:merge` joins shards' conformance.json into one
 * record whose verdicts equal an unsharded run's, copies their Allure results, and re-renders
 * Markdown and HTML. Real `vitest --shard` runs merged by the nightly's own steps are rehearsed in
 * test/integration/pipelines.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeRuns, MergeError } from '../../helpers/report/merge';
import { readRunRecord, writeRunRecord } from '../../helpers/report/record-io';
import { mergeMain } from '../../scripts/report-merge';
import { fixtureRun } from '../fixtures/report/records';
import { scratchDir } from '../support/scratch';

function shards(): { root: string; one: ReturnType<typeof fixtureRun>; two: ReturnType<typeof fixtureRun> } {
  const root = scratchDir('merge-test-');
  const one = fixtureRun({ sections: ['5', '7'], fail: ['5.1/bearer-401'], startedAt: '2026-01-02T03:04:05.000Z' });
  one.shard = { index: 1, count: 2 };
  const two = fixtureRun({ sections: ['2', '8'], skip: { '8/backoff-429': 'opt-in not given: x' }, startedAt: '2026-01-02T03:04:06.000Z' });
  two.shard = { index: 2, count: 2 };
  for (const [i, rec] of [one, two].entries()) {
    const dir = join(root, `shard-${i + 1}`);
    writeRunRecord(rec, join(dir, `shard-${i + 1}-of-2`));
    mkdirSync(join(dir, 'allure-results'), { recursive: true });
    writeFileSync(join(dir, 'allure-results', `result-${i + 1}.json`), '{}');
  }
  return { root, one, two };
}

describe('merging shard records', () => {
  test('statement results are judged again on the merged clause verdicts', () => {
    const { one, two } = shards();
    const statements = [
      { address: '5.1', key: '§5/item/k1', clauses: ['5.1/bearer-401'], verdict: 'not-covered' as const },
      { address: '1', key: '§1/item/k2', clauses: [], verdict: 'informative' as const },
    ];
    // Shard two did not run §5: its copy of the statement reads not-covered; shard one failed the clause.
    one.spec = { statements: statements.map((x) => ({ ...x, verdict: x.verdict === 'informative' ? x.verdict : ('fail' as const) })) };
    two.spec = { statements };
    const merged = mergeRuns([one, two]);
    expect(merged.clauses.find((c) => c.id === '5.1/bearer-401')!.verdict).toBe('fail');
    expect(merged.spec!.statements.map((x) => [x.key, x.verdict])).toEqual([
      ['§5/item/k1', 'fail'],
      ['§1/item/k2', 'informative'],
    ]);
    expect(merged.summary.statementCoverage).toBe(1);
  });

  test('two fixture shards merge into the verdicts, counts and requests of one unsharded run', () => {
    const { one, two } = shards();
    const whole = fixtureRun({ fail: ['5.1/bearer-401'], skip: { '8/backoff-429': 'opt-in not given: x' } });
    const merged = mergeRuns([two, one], ['a', 'b']);
    expect(merged.clauses.map((c) => [c.id, c.verdict])).toEqual(
      whole.clauses.map((c) => [c.id, c.verdict]).sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true })),
    );
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.clauseSummary).toEqual(whole.clauseSummary);
    expect(merged.requests).toEqual({ ...whole.requests, perFile: expect.objectContaining(whole.requests.perFile) });
    expect(merged.startedAt).toBe(one.startedAt);
    expect(merged.merged).toEqual({
      sources: ['a', 'b'],
      shards: [
        { index: 2, count: 2 },
        { index: 1, count: 2 },
      ],
    });
    // Each shard alone leaves the other shard's clauses uncovered; merged, nothing is.
    expect(one.clauseSummary['not-covered']).toBeGreaterThan(0);
    expect(merged.clauseSummary['not-covered']).toBe(0);
  });

  test('a test present in two records counts once, from the record that finished last', () => {
    const first = fixtureRun({ fail: ['5.1/bearer-401'], startedAt: '2026-01-02T00:00:00.000Z' });
    const rerun = fixtureRun({ startedAt: '2026-01-02T01:00:00.000Z' });
    const merged = mergeRuns([rerun, first]);
    expect(merged.summary.total).toBe(first.summary.total);
    expect(merged.clauses.find((c) => c.id === '5.1/bearer-401')!.verdict).toBe('pass');
  });

  test('a shard that could not reach its target makes the merged run unreachable, so the gate says why', () => {
    const { one } = shards();
    const down = fixtureRun({ sections: [] });
    down.shard = { index: 2, count: 2 };
    down.unreachable = { cause: 'connection refused by staging.example.com:443: nothing listens there', fix: 'check that the target is up' };
    const merged = mergeRuns([one, down]);
    expect(merged.unreachable).toEqual(down.unreachable);
    expect(mergeRuns([one]).unreachable).toBeUndefined();
  });

  test('shards of different target modes are refused; so is an empty input', () => {
    expect(() => mergeRuns([fixtureRun(), fixtureRun({ mode: 'live' })])).toThrow(MergeError);
    expect(() => mergeRuns([])).toThrow(/nothing to merge/);
  });

  test('npm run report:merge finds the records in folders, writes json, md and html, and copies the Allure results', async () => {
    const { root } = shards();
    const out = join(root, 'merged');
    const line = await mergeMain([root], out);
    expect(line).toMatch(/2 records .* 7 tests \(5 passed, 1 failed, 0 errors, 1 skipped\); 1 failing clauses; 2 allure files copied/);
    const merged = readRunRecord(join(out, 'conformance.json'));
    expect(merged.summary.total).toBe(7);
    expect(readFileSync(join(out, 'conformance.md'), 'utf8')).toContain('merged from 2 shard records');
    expect(readFileSync(join(out, 'conformance.html'), 'utf8')).toContain('<tr class="clause" id="c-5.1/bearer-401" data-status="fail">');
    expect(readdirSync(join(out, 'allure-results')).sort()).toEqual(['result-1.json', 'result-2.json']);
    // merging again into the same folder does not read the merged record back as a shard
    expect(await mergeMain([root], out)).toMatch(/^report:merge: 2 records/);
  });
});
