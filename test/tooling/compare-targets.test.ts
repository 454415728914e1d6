/**
 * compare-targets: over a clean run and a fault run, the clauses the fault broke come
 * first, and each column is named by target and time. Also runs the CLI over two record files.
 */
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareTargets, renderTargetsHtml, renderTargetsMarkdown } from '../../helpers/report/compare-targets';
import { fixtureRun } from '../fixtures/report/records';
import { scratchDir } from '../support/scratch';

const clean = fixtureRun();
const broken = fixtureRun({ fail: ['5.1/bearer-401'], error: ['8/backoff-429'] });

describe('compareTargets', () => {
  test('lists the clauses the runs disagree on first', () => {
    const t = compareTargets([clean, broken]);
    expect(t.rows.length).toBe(clean.clauses.length);
    const firstTwo = t.rows
      .slice(0, 2)
      .map((r) => r.id)
      .sort();
    expect(firstTwo).toEqual(['5.1/bearer-401', '8/backoff-429']);
    expect(t.rows.slice(0, 2).every((r) => r.disagree)).toBe(true);
    expect(t.rows.slice(2).every((r) => !r.disagree)).toBe(true);
    expect(t.rows[0].verdicts).toContain(clean.clauses.find((c) => c.id === t.rows[0].id)!.verdict);
    expect(t.columns[0]).toContain(clean.target.mode);
    expect(t.columns[0]).toContain(clean.startedAt);
  });
  test('renders Markdown and HTML with one column per run', () => {
    const t = compareTargets([clean, broken, clean]);
    const md = renderTargetsMarkdown(t);
    expect(md).toContain('2 of');
    expect(md.split('\n').find((l) => l.includes('5.1/bearer-401'))).toMatch(/≠.*fail/);
    const html = renderTargetsHtml(t);
    expect(html.match(/<tr class="disagree"/g)?.length).toBe(2);
    expect(html).not.toMatch(/<script/);
  });
  test('the CLI writes both files and fails with fewer than two records', () => {
    const dir = scratchDir('compare-targets-');
    try {
      writeFileSync(join(dir, 'a.json'), JSON.stringify(clean));
      writeFileSync(join(dir, 'b.json'), JSON.stringify(broken));
      const tsx = join('node_modules', '.bin', 'tsx');
      const out = execFileSync(tsx, ['scripts/compare-targets.ts', join(dir, 'a.json'), join(dir, 'b.json'), '--out', dir], { encoding: 'utf8' });
      expect(out.split('\n').findIndex((l) => l.includes('5.1/bearer-401'))).toBeLessThan(out.split('\n').findIndex((l) => l.includes('5.1/apikey-scheme')));
      expect(readFileSync(join(dir, 'compare-targets.html'), 'utf8')).toContain('5.1/bearer-401');
      expect(() => execFileSync(tsx, ['scripts/compare-targets.ts', join(dir, 'a.json')], { stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
