/**
 * The regression report: clause verdicts, Markdown and static HTML from a run record
 * alone, baseline comparison, redaction before writing, report folder under shards, and the
 * `conformance` wrapper's argument split.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clauseVerdicts, buildRunRecord, skipKindOf } from '../../helpers/report/model';
import { compareRuns, hasChanges } from '../../helpers/report/baseline';
import { offLines, renderMarkdown, verdictLines } from '../../helpers/report/markdown';
import { renderHtml } from '../../helpers/report/html';
import { writeReports } from '../../helpers/report/writers';
import { assertRunRecord, readRunRecord, scrubRecord, writeRunRecord } from '../../helpers/report/record-io';
import { conformanceReportDir, REPORT_DIR } from '../../helpers/report/vitest-reporter';
import { registerSecret } from '../../helpers/base/redact';
import { splitBaseline } from '../../scripts/conformance';
import { FIXTURE_SECRET, fixtureCatalogue, fixtureRun, fixtureTests } from '../fixtures/report/records';
import { scratchDir } from '../support/scratch';

const tmp = () => scratchDir('report-test-');

describe('clause verdicts', () => {
  test('a failing check fails only the clause it names; the envelope clause checked in the same test passes', () => {
    const run = fixtureRun({ fail: ['5.1/bearer-401'] });
    const v = Object.fromEntries(run.clauses.map((c) => [c.id, c.verdict]));
    expect(v['5.1/bearer-401']).toBe('fail');
    expect(v['7/error-envelope']).toBe('pass');
    expect(v['5.1/apikey-scheme']).toBe('pass');
    expect(run.clauses.find((c) => c.id === '5.1/bearer-401')!.message).toContain('expected: 401 UNAUTHORIZED');
  });

  test('fail outranks pass, error outranks pass, and errors are not failures', () => {
    const run = fixtureRun({ error: ['2.2/idle-timeout-range'] });
    const c = run.clauses.find((x) => x.id === '2.2/idle-timeout-range')!;
    expect(c.verdict).toBe('error');
    expect(run.clauseSummary.fail).toBe(0);
    expect(run.summary.errors).toBe(1);
  });

  test('a test cut off after passed checks: clauses only those checks name keep pass, its own clauses are error, none turns fail', () => {
    const catalogue = fixtureCatalogue();
    const [first] = fixtureTests();
    const own = first.clauses[0];
    const tests = [
      {
        ...first,
        status: 'error' as const,
        message: 'ran out of time (…); waiting on GET /assistants for 30.0 s',
        checks: [
          { clauses: [own], requirement: 'the first answer', ok: true },
          { clauses: ['7/error-envelope'], requirement: 'answer uses the envelope', ok: true },
        ],
      },
    ];
    const v = Object.fromEntries(
      clauseVerdicts(catalogue, tests)
        .filter((c) => c.tests.length)
        .map((c) => [c.id, c.verdict]),
    );
    expect(v[own]).toBe('error');
    expect(v['7/error-envelope']).toBe('pass');
    expect(Object.values(v)).not.toContain('fail');
  });

  test('not-covered, not-testable, and the coverage figure = testable clauses with a test / testable clauses', () => {
    const run = fixtureRun({ omit: ['8/backoff-429'] });
    const v = Object.fromEntries(run.clauses.map((c) => [c.id, c.verdict]));
    expect(v['8/backoff-429']).toBe('not-covered');
    expect(v['8/rate-limits']).toBe('not-testable');
    expect(run.clauseSummary.coverage).toBeCloseTo(6 / 7);
  });

  test('a clause whose targets exclude a live run is skipped as not applicable, not reported as uncovered', () => {
    const live = fixtureRun({ mode: 'live', omit: ['5.4/rotation-immediate'] });
    const c = live.clauses.find((x) => x.id === '5.4/rotation-immediate')!;
    expect(c.verdict).toBe('skip');
    expect(c.skipKind).toBe('not-applicable');
    expect(c.message).toMatch(/not applicable to this target/);
    const sim = fixtureRun({ mode: 'external', omit: ['5.4/rotation-immediate'] });
    expect(sim.clauses.find((x) => x.id === '5.4/rotation-immediate')!.verdict).toBe('not-covered');
  });

  test('skip reasons are classified: not applicable, missing optional fixture, opt-in not given', () => {
    expect(skipKindOf('not applicable to this target: needs a simulator control API')).toBe('not-applicable');
    expect(skipKindOf('missing optional fixture: set CORE_API_ROTATED_KEY')).toBe('missing-fixture');
    expect(skipKindOf('opt-in not given: sending a real SMS needs CORE_API_ALLOW_SMS=1')).toBe('opt-in');
    expect(skipKindOf('precondition failed')).toBe('other');
    const run = fixtureRun({ mode: 'live', skip: { '5.4/rotation-immediate': 'missing optional fixture: set CORE_API_ROTATED_KEY' } });
    const c = run.clauses.find((x) => x.id === '5.4/rotation-immediate')!;
    expect([c.verdict, c.skipKind, c.message]).toEqual(['skip', 'missing-fixture', 'missing optional fixture: set CORE_API_ROTATED_KEY']);
  });

  test('a clause named by a test that is not in the catalogue gets no verdict row (the catalogue test catches it)', () => {
    const tests = fixtureTests();
    tests[0] = { ...tests[0], clauses: ['9.9/nowhere'] };
    const ids = clauseVerdicts(fixtureCatalogue(), tests).map((c) => c.id);
    expect(ids).not.toContain('9.9/nowhere');
  });
});

describe('what a run left off (first screen)', () => {
  const live = () =>
    fixtureRun({
      mode: 'live',
      omit: ['5.4/rotation-immediate'],
      skip: {
        '2.2/idle-timeout-range': 'the DNS cannot be arranged: set CORE_API_WILDCARD_DNS',
        '5.1/bearer-401': 'needs a public URL and a trigger',
        '2.2/transfer-mode-enum': 'precondition failed: set CORE_API_WILDCARD_DNS=<domain> is mentioned only in prose',
        '8/backoff-429': 'opt-in not given: a should clause',
      },
      needs: { '2.2/idle-timeout-range': ['wildcardDns'], '5.1/bearer-401': ['publicUrl', 'trigger'], '8/backoff-429': ['modelUsage'] },
    });

  test('counts must clauses checked and, per switch, the skipped must clauses its tag names; prose naming a variable counts nothing', () => {
    const off = live().off!;
    expect([off.mustChecked, off.mustTestable]).toEqual([2, 6]);
    expect(off.switches.map((s) => [s.name, s.mustClauses, s.tests])).toEqual([
      ['publicUrl', ['5.1/bearer-401'], 1],
      ['trigger', ['5.1/bearer-401'], 1],
      ['wildcardDns', ['2.2/idle-timeout-range'], 1],
      ['control', ['5.4/rotation-immediate'], 0],
      ['modelUsage', [], 1],
    ]);
    expect(off.switches.find((s) => s.name === 'wildcardDns')!.variable).toBe('CORE_API_WILDCARD_DNS=<domain>');
  });

  test('Markdown, HTML and the console lines show the figures and the variable that turns each switch on', () => {
    const run = live();
    const md = renderMarkdown(run);
    expect(md.indexOf('**Checked 2 of 6 testable `must` clauses (33%).**')).toBeLessThan(md.indexOf('## Totals'));
    expect(md).toContain('| wildcard DNS | `CORE_API_WILDCARD_DNS=<domain>` | 1 | 1 |');
    expect(md).toContain('| model usage | `CORE_API_ALLOW_MODEL_USAGE=1` | 0 | 1 |');
    expect(md).toMatch(/\| simulator control API \| run against the simulator[^|]*\| 1 \| 0 \|/);
    const html = renderHtml(run);
    expect(html.indexOf('Checked 2 of 6 testable <code>must</code> clauses')).toBeLessThan(html.indexOf('id="failing"'));
    expect(html).toContain('<code>CORE_API_WILDCARD_DNS=&lt;domain&gt;</code>');
    expect(offLines(run)).toEqual([
      'must clauses checked: 2 of 6 testable (33%)',
      '  off: public webhook URL would turn on 1 must clause (1 test): set CORE_API_WEBHOOK_PUBLIC_URL=<https URL forwarded to the receiver>',
      '  off: event trigger would turn on 1 must clause (1 test): set CORE_API_EVENT_TRIGGER=<command or https URL>',
      '  off: wildcard DNS would turn on 1 must clause (1 test): set CORE_API_WILDCARD_DNS=<domain>',
      '  off: simulator control API would turn on 1 must clause: run against the simulator: a live tenant cannot be made to do this',
      '    needs a control API: 5.4/rotation-immediate: not applicable to this target: testable on simulator only',
      '  off: model usage would turn on 0 must clauses (1 test): set CORE_API_ALLOW_MODEL_USAGE=1',
    ]);
    // The ceiling of a run without a control API: each clause that still needs one, with why, in every form.
    expect(run.off!.switches.find((w) => w.name === 'control')?.reasons).toEqual([
      { id: '5.4/rotation-immediate', reason: 'not applicable to this target: testable on simulator only' },
    ]);
    expect(md).toContain('- `5.4/rotation-immediate`: not applicable to this target: testable on simulator only');
    expect(html).toContain('<li><code>5.4/rotation-immediate</code>: not applicable to this target: testable on simulator only</li>');
    assertRunRecord(JSON.parse(JSON.stringify(run)));
  });
});

describe('Markdown report', () => {
  test('leads with the baseline diff, then totals, failures first with request and answer, then the clause table and requests per suite file', () => {
    const baseline = fixtureRun();
    const run = fixtureRun({ fail: ['5.1/bearer-401'], extraRequests: { 'suites/auth.test.ts': 3 } });
    run.comparison = compareRuns(baseline, run, 'baseline.json');
    const md = renderMarkdown(scrubRecord(run));
    const order = ['## Since the baseline', '## Totals', '## Failing clauses', '## Failures', '## Clauses', '## Requests per suite file'].map((h) =>
      md.indexOf(h),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(md).toContain('# Core API conformance: FAIL');
    expect(md).toMatch(/Regressions \(pass → fail\) \(1\)/);
    expect(md).toContain('`5.1/bearer-401` (must) pass → fail');
    expect(md).toContain('GET /assistants\naccept: application/json\nauthorization: Bearer [REDACTED]');
    expect(md).toContain('--- answer ---\n200');
    expect(md).toMatch(/| suites\/auth\.test\.ts \| 6 \| 15 \| \+9 \|/);
    expect(md).toContain('Coverage: **100.0%**');
  });

  test('the top and the closing lines count fail and error apart and say how the target misbehaved', () => {
    const run = fixtureRun({ error: ['2.2/idle-timeout-range'] });
    run.requests.hung = 3;
    run.requests.notApi = 12;
    run.requests.retries = 40;
    const md = renderMarkdown(run);
    expect(md).toContain(`**Verdicts: ${run.summary.failed} fail, 1 error**`);
    expect(md).toContain(
      "**The target misbehaved**: 12 answers were not the API's (a gateway's page, a body cut short), 3 request attempts hung past the deadline, 40 retries, 1 test in error.",
    );
    expect(md.indexOf('The target misbehaved')).toBeLessThan(md.indexOf('## Totals'));
    const lines = verdictLines(run);
    expect(lines[0]).toMatch(/^verdicts: \d+ pass, \d+ fail, 1 error \(target or network trouble, not a conformance verdict\), \d+ skip$/);
    expect(lines[1]).toMatch(/^the target misbehaved: 12 answers were not the API's/);
    const calm = fixtureRun();
    calm.requests.retries = 0;
    expect(verdictLines(calm)).toHaveLength(1);
    expect(renderMarkdown(calm)).not.toContain('The target misbehaved');
  });

  test('a clean run says PASS and lists no failures', () => {
    const md = renderMarkdown(fixtureRun());
    expect(md).toContain('# Core API conformance: PASS');
    expect(md).not.toContain('## Failures');
  });
});

describe('HTML report (static checks; the browser check is report-html.test.ts)', () => {
  test('is one self-contained file: inline CSS and JS, no network reference', () => {
    const html = renderHtml(fixtureRun({ fail: ['5.1/bearer-401'] }));
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+stylesheet/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(html).toContain("default-src 'none'");
  });

  test('has one row per clause, grouped by top section, and escapes catalogue text', () => {
    const run = fixtureRun({ fail: ['2.2/transfer-mode-enum'] });
    const html = renderHtml(run);
    expect(html.match(/<tr class="clause"/g)!.length).toBe(run.clauses.length);
    expect(html.match(/<tbody class="sec"/g)!.length).toBe(4);
    expect(html).toContain('400 &lt;VALIDATION_ERROR&gt;');
    expect(html).not.toContain('400 <VALIDATION_ERROR>');
  });
});

describe('writing reports', () => {
  test('every written file is redacted: registered secrets and credential headers of evidence never reach reports', async () => {
    registerSecret(FIXTURE_SECRET, 'fixture tenant key');
    const dir = tmp();
    const run = fixtureRun({ fail: ['5.1/bearer-401', '7/error-envelope'] });
    writeRunRecord(run, dir);
    await writeReports(run, dir);
    for (const f of ['conformance.json', 'conformance.md', 'conformance.html']) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text, f).not.toContain(FIXTURE_SECRET);
      expect(text, f).toMatch(/Bearer \[REDACTED\]/);
    }
    expect(readRunRecord(join(dir, 'conformance.json')).clauses.length).toBe(run.clauses.length);
  });

  test('credential headers are reduced to their scheme even when the key was never registered', () => {
    const run = fixtureRun({ fail: ['5.1/bearer-401'] });
    (run.tests.find((t) => t.status === 'fail')!.evidence![0] as any).request.headers.authorization = 'ApiKey never_registered_key_123456';
    expect(JSON.stringify(scrubRecord(run))).not.toContain('never_registered_key_123456');
  });

  test('a file that is not a run record is refused with the path of each violation', () => {
    expect(() => assertRunRecord({ schemaVersion: 1 }, 'x.json')).toThrow(/x\.json is not a conformance run record[\s\S]*required property 'target'/);
    const run: any = fixtureRun();
    run.clauses[0].verdict = 'maybe';
    expect(() => assertRunRecord(run)).toThrow(/\/clauses\/0\/verdict/);
  });
});

describe('history: comparison with a baseline', () => {
  test('finds regressions, fixes, newly skipped, other changes, new drift and changed request counts', () => {
    const baseline = fixtureRun({ fail: ['2.2/idle-timeout-range'], drift: [{ kind: 'field', where: 'assistant', what: '/data/old' }] });
    const run = fixtureRun({
      fail: ['5.1/bearer-401'],
      skip: { '8/backoff-429': 'opt-in not given: x' },
      error: ['7/error-envelope'],
      drift: [
        { kind: 'field', where: 'assistant', what: '/data/old' },
        { kind: 'error-code', where: 'GET /assistants/{id}', what: 'TEAPOT' },
      ],
      extraRequests: { 'suites/envelope.test.ts': 5 },
    });
    const c = compareRuns(baseline, run, 'prev.json');
    expect(c.regressions.map((x) => x.id)).toEqual(['5.1/bearer-401']);
    expect(c.fixes.map((x) => x.id)).toEqual(['2.2/idle-timeout-range']);
    expect(c.newlySkipped.map((x) => x.id)).toEqual(['8/backoff-429']);
    expect(c.otherChanges.map((x) => `${x.id} ${x.from}→${x.to}`)).toEqual(['7/error-envelope pass→error']);
    expect(c.newDrift.map((d) => d.what)).toEqual(['TEAPOT']);
    expect(c.requestChanges).toEqual([
      { file: 'suites/envelope.test.ts', before: 2, after: 7 },
      { file: 'suites/limits.test.ts', before: 2, after: 0 },
    ]);
    expect(c.baseline.file).toBe('prev.json');
    expect(hasChanges(c)).toBe(true);
    expect(hasChanges(compareRuns(baseline, baseline))).toBe(false);
  });
});

describe('shards and the conformance wrapper', () => {
  test('each shard writes its own report folder unless CONFORMANCE_REPORT_DIR names one', () => {
    expect(conformanceReportDir(undefined, {})).toBe(REPORT_DIR);
    expect(conformanceReportDir({ index: 2, count: 3 }, {})).toBe(join(REPORT_DIR, 'shard-2-of-3'));
    expect(conformanceReportDir({ index: 2, count: 3 }, { CONFORMANCE_REPORT_DIR: 'out/s2' })).toBe(resolve('out/s2'));
  });

  test('--baseline is taken out of the arguments; everything else reaches vitest unchanged', () => {
    expect(splitBaseline(['--baseline', 'old.json', 'suites/auth.test.ts', '-t', '5.1'])).toEqual({
      baseline: 'old.json',
      rest: ['suites/auth.test.ts', '-t', '5.1'],
    });
    expect(splitBaseline(['--baseline=old.json', '--shard', '1/2'])).toEqual({ baseline: 'old.json', rest: ['--shard', '1/2'] });
    expect(splitBaseline(['suites/x.test.ts'])).toEqual({ baseline: undefined, rest: ['suites/x.test.ts'] });
    expect(() => splitBaseline(['--baseline'])).toThrow(/needs a file/);
  });

  test('a run record built twice from the same tests is identical (reports depend on records alone)', () => {
    const a = fixtureRun({ fail: ['5.1/bearer-401'] });
    const b = buildRunRecord({
      catalogue: fixtureCatalogue(),
      tests: a.tests,
      target: a.target,
      startedAt: a.startedAt,
      finishedAt: a.finishedAt,
      sections: a.sections,
    });
    expect(renderMarkdown(b)).toBe(renderMarkdown(a));
    expect(readdirSync(tmp())).toEqual([]);
  });
});

describe('clause ids for the catalogue check', () => {
  test('ids come from the brackets at the end of a test name', async () => {
    const { clauseIdsInName } = await import('../../helpers/report/list-tests');
    expect(clauseIdsInName("'GET /assistants' > Bearer is rejected [5.1/bearer-401 7/error-envelope]")).toEqual(['5.1/bearer-401', '7/error-envelope']);
    expect(clauseIdsInName('a test without ids')).toEqual([]);
  });

  test('ids in source are string literals only: comments and other strings are ignored', async () => {
    const { clauseIdsInSource } = await import('../../helpers/report/list-tests');
    const dir = tmp();
    const file = join(dir, 'probe.test.ts');
    writeFileSync(
      file,
      "// clauseTest('9.9/in-a-comment')\n/** '9.8/in-a-doc' */\ncheck(['6/a-secret-header', `7/error-envelope`], 'see §5.6/x', ok);\nconst path = '/assistants/1';\n",
    );
    const found = await clauseIdsInSource([file], dir);
    expect([...found.keys()].sort()).toEqual(['6/a-secret-header', '7/error-envelope']);
    expect(found.get('6/a-secret-header')).toEqual(['probe.test.ts']);
  });
});
