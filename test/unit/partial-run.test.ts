/**
 * A partial run (a file filter, `-t`, one shard) says so: its record carries the reasons, clauses
 * whose tests did not run read "not run" (skip of kind not-run) instead of "not covered", every
 * report shows it, the gate blocks it unless --allow-partial, and a merge of every shard is full.
 */
import { describe, expect, test } from 'vitest';
import { buildRunRecord, catalogueOf } from '../../helpers/report/model';
import { evaluateGate } from '../../helpers/report/gate';
import { mergeRuns } from '../../helpers/report/merge';
import { renderMarkdown } from '../../helpers/report/markdown';
import { renderHtml } from '../../helpers/report/html';
import { fixtureRun } from '../fixtures/report/records';

const NOW = new Date('2026-06-01T12:00:00Z');

/** The fixture run rebuilt as shard `index` of `count`, keeping only the given tests. */
function shardOf(index: number, count: number, keep: (i: number) => boolean) {
  const full = fixtureRun();
  return buildRunRecord({
    catalogue: catalogueOf(full),
    tests: full.tests.filter((_, i) => keep(i)),
    target: full.target,
    startedAt: full.startedAt,
    finishedAt: full.finishedAt,
    shard: { index, count },
    partial: [`shard ${index} of ${count}`],
  });
}

describe('partial runs', () => {
  test('untouched testable clauses read "not run", not "not covered", and the reports say partial', () => {
    const full = fixtureRun({ omit: ['5.1/bearer-401'] });
    expect(full.clauses.find((c) => c.id === '5.1/bearer-401')?.verdict).toBe('not-covered');
    const partial = buildRunRecord({
      catalogue: catalogueOf(full),
      tests: full.tests,
      target: full.target,
      startedAt: full.startedAt,
      finishedAt: full.finishedAt,
      partial: ['test names filtered (-t bearer)'],
    });
    const c = partial.clauses.find((x) => x.id === '5.1/bearer-401')!;
    expect([c.verdict, c.skipKind]).toEqual(['skip', 'not-run']);
    expect(c.message).toMatch(/not run: partial run \(test names filtered/);
    expect(partial.partial).toEqual({ reasons: ['test names filtered (-t bearer)'] });
    expect(renderMarkdown(partial)).toMatch(/\*\*Partial run\*\*: test names filtered/);
    expect(renderHtml(partial)).toMatch(/Partial run<\/strong>: test names filtered/);
  });

  test('the gate blocks a partial run unless --allow-partial', () => {
    const full = fixtureRun();
    const partial = buildRunRecord({
      catalogue: catalogueOf(full),
      tests: full.tests,
      target: full.target,
      startedAt: full.startedAt,
      finishedAt: full.finishedAt,
      partial: ['suite files not run: suites/auth.test.ts'],
    });
    expect(evaluateGate({ run: full, now: NOW }).ok).toBe(true);
    const blocked = evaluateGate({ run: partial, now: NOW });
    expect(blocked.ok).toBe(false);
    expect(blocked.reasons.join('\n')).toMatch(/partial run \(suite files not run/);
    expect(evaluateGate({ run: partial, now: NOW, allowPartial: true }).ok).toBe(true);
  });

  test('a merge of every shard is a full run; a merge missing one stays partial', () => {
    const one = shardOf(1, 2, (i) => i % 2 === 0);
    const two = shardOf(2, 2, (i) => i % 2 === 1);
    expect(one.partial?.reasons).toEqual(['shard 1 of 2']);
    expect(mergeRuns([one, two]).partial).toBeUndefined();
    expect(mergeRuns([one]).partial?.reasons).toEqual(['shards 1 of 2 merged']);
  });

  test('shards of a run given a file filter merge into a partial run, naming the files not run', () => {
    const one = shardOf(1, 2, (i) => i % 2 === 0);
    const two = shardOf(2, 2, (i) => i % 2 === 1);
    const ran = [...new Set([...one.tests, ...two.tests].map((t) => t.file))].sort();
    expect(mergeRuns([one, two], [], { suiteFiles: ran }).partial).toBeUndefined();
    const merged = mergeRuns([one, two], [], { suiteFiles: [...ran, 'suites/webhooks.test.ts'] });
    expect(merged.partial?.reasons).toEqual(['suite files not run: suites/webhooks.test.ts']);
    expect(evaluateGate({ run: merged, now: NOW }).ok).toBe(false);
  });
});
