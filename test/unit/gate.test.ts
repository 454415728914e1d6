/**
 * The pre-release gate: fails on a failing `must` clause and on a regression against a
 * baseline, passes on a clean run, honours allow-list entries until they expire, and the command
 * line prints one line per reason with exit status 1 (blocked), 0 (pass) or 2 (bad input).
 */
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_CHECKED_DROP, evaluateGate, mustChecked, readKnownDeviations, type KnownDeviation } from '../../helpers/report/gate';
import { writeRunRecord } from '../../helpers/report/record-io';
import { gateMain } from '../../scripts/gate';
import { fixtureRun } from '../fixtures/report/records';
import type { RunRecord } from '../../helpers/report/model';
import { scratchDir } from '../support/scratch';

const NOW = new Date('2026-06-15T10:00:00Z');
const entry = (clause: string, expires: string): KnownDeviation => ({
  clause,
  expires,
  comment: 'vendor ticket 123: Bearer accepted until the auth gateway upgrade',
});

function files(run: RunRecord, baseline?: RunRecord, deviations: KnownDeviation[] = []): { run: string; baseline?: string; allow: string } {
  const dir = scratchDir('gate-test-');
  writeRunRecord(run, join(dir, 'run'));
  if (baseline) writeRunRecord(baseline, join(dir, 'base'));
  writeFileSync(join(dir, 'allow.json'), JSON.stringify({ deviations }));
  return { run: join(dir, 'run', 'conformance.json'), baseline: baseline ? join(dir, 'base', 'conformance.json') : undefined, allow: join(dir, 'allow.json') };
}

function cli(args: string[]): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = gateMain(args, (l) => lines.push(l));
  return { code, lines };
}

describe('gate decisions', () => {
  test('passes a clean run, with and without a baseline', () => {
    expect(evaluateGate({ run: fixtureRun(), now: NOW })).toMatchObject({ ok: true, reasons: [] });
    expect(evaluateGate({ run: fixtureRun(), baseline: fixtureRun(), now: NOW })).toMatchObject({ ok: true, reasons: [] });
  });

  test('fails when a must clause fails, one reason per clause, saying why', () => {
    const r = evaluateGate({ run: fixtureRun({ fail: ['5.1/bearer-401', '2.2/idle-timeout-range'] }), now: NOW });
    expect(r.ok).toBe(false);
    expect(r.reasons).toHaveLength(2);
    expect(r.reasons[0]).toMatch(/^must clause 5\.1\/bearer-401 fails: expected 401 UNAUTHORIZED, got 200/);
  });

  test('a failing should clause alone does not block; a should clause that regressed does', () => {
    expect(evaluateGate({ run: fixtureRun({ fail: ['8/backoff-429'] }), now: NOW }).ok).toBe(true);
    const r = evaluateGate({ run: fixtureRun({ fail: ['8/backoff-429'] }), baseline: fixtureRun(), now: NOW });
    expect(r.ok).toBe(false);
    expect(r.reasons).toEqual([expect.stringMatching(/^should clause 8\/backoff-429 regressed: pass → fail/)]);
  });

  test('--strict: a failing should clause blocks, once, saying so; without it the failure is a warning', () => {
    const lenient = evaluateGate({ run: fixtureRun({ fail: ['8/backoff-429'] }), now: NOW });
    expect(lenient.notes).toContainEqual(expect.stringMatching(/^warning: should clause 8\/backoff-429 fails: .*blocks only with --strict/));
    const strict = evaluateGate({ run: fixtureRun({ fail: ['8/backoff-429'] }), now: NOW, strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.reasons).toEqual([expect.stringMatching(/^should clause 8\/backoff-429 fails: .*\(--strict\)$/)]);
    const regressed = evaluateGate({ run: fixtureRun({ fail: ['8/backoff-429'] }), baseline: fixtureRun(), now: NOW, strict: true });
    expect(regressed.reasons).toEqual([expect.stringMatching(/^should clause 8\/backoff-429 fails \(regressed: pass → fail\)/)]);
    const f = files(fixtureRun({ fail: ['8/backoff-429'] }));
    expect(cli(['--run', f.run, '--allow', f.allow]).code).toBe(0);
    expect(cli(['--run', f.run, '--allow', f.allow, '--strict']).code).toBe(1);
  });

  test('a must clause that regressed is one reason that says so', () => {
    const r = evaluateGate({ run: fixtureRun({ fail: ['5.1/bearer-401'] }), baseline: fixtureRun(), now: NOW });
    expect(r.reasons).toEqual([expect.stringMatching(/^must clause 5\.1\/bearer-401 fails \(regressed: pass → fail\)/)]);
  });

  test('fails closed: an unverified must clause (error verdict) blocks; --allow-errors makes it a warning; an empty run blocks', () => {
    const closed = evaluateGate({ run: fixtureRun({ error: ['5.1/bearer-401'] }), now: NOW });
    expect(closed.ok).toBe(false);
    expect(closed.reasons).toEqual([expect.stringMatching(/^must clause 5\.1\/bearer-401 has no verdict.*unverified must clause/)]);
    const r = evaluateGate({ run: fixtureRun({ error: ['5.1/bearer-401'] }), now: NOW, allowErrors: true });
    expect(r.ok).toBe(true);
    expect(r.notes).toEqual([
      expect.stringMatching(/^--allow-errors: 1 must clause could not be verified this run .* must clauses checked: 83\.3% \(5 of 6\)$/),
      expect.stringMatching(/^warning: must clause 5\.1\/bearer-401 has no verdict/),
    ]);
    const empty = fixtureRun({
      omit: [
        '5.1/apikey-scheme',
        '5.1/bearer-401',
        '5.4/rotation-immediate',
        '2.2/transfer-mode-enum',
        '7/error-envelope',
        '8/backoff-429',
        '2.2/idle-timeout-range',
      ],
    });
    expect(evaluateGate({ run: empty, now: NOW }).reasons).toEqual([expect.stringMatching(/no conformance test ran/)]);
  });

  test('--allow-errors tolerates flakiness, not an outage: a run that checked no must clause blocks', () => {
    const all = [
      '5.1/apikey-scheme',
      '5.1/bearer-401',
      '5.4/rotation-immediate',
      '2.2/transfer-mode-enum',
      '7/error-envelope',
      '8/backoff-429',
      '2.2/idle-timeout-range',
    ];
    const r = evaluateGate({ run: fixtureRun({ error: all }), now: NOW, allowErrors: true });
    expect(r.ok).toBe(false);
    expect(r.reasons).toEqual([expect.stringMatching(/^the run checked no must clause .*--allow-errors tolerates a flaky target, not an outage$/)]);
    expect(mustChecked(fixtureRun({ error: all }))).toEqual({ checked: 0, testable: 6, share: 0 });
  });

  test('the share of must clauses checked may fall against the baseline by the margin, no more (default 10 points)', () => {
    const baseline = fixtureRun();
    const flaky = fixtureRun({ error: ['5.1/bearer-401'] }); // 5 of 6: 16.7 points down
    const blocked = evaluateGate({ run: flaky, baseline, now: NOW, allowErrors: true });
    expect(DEFAULT_MAX_CHECKED_DROP).toBe(10);
    expect(blocked.ok).toBe(false);
    expect(blocked.reasons).toEqual([
      'the share of must clauses checked fell from 100.0% (6 of 6) in the baseline to 83.3% (5 of 6), 16.7 points, more than the 10-point margin (--max-checked-drop): the target answered less than last time; --allow-errors tolerates a flaky target, not an outage',
    ]);
    expect(evaluateGate({ run: flaky, baseline, now: NOW, allowErrors: true, maxCheckedDrop: 20 }).ok).toBe(true);
    // The same share as the baseline is no fall, whatever the errors.
    expect(evaluateGate({ run: flaky, baseline: fixtureRun({ error: ['5.4/rotation-immediate'] }), now: NOW, allowErrors: true }).ok).toBe(true);
  });

  test('a run that could not reach its target blocks, --allow-errors included, and says why', () => {
    const empty = fixtureRun({
      omit: [
        '5.1/apikey-scheme',
        '5.1/bearer-401',
        '5.4/rotation-immediate',
        '2.2/transfer-mode-enum',
        '7/error-envelope',
        '8/backoff-429',
        '2.2/idle-timeout-range',
      ],
    });
    empty.unreachable = { cause: 'connection refused by staging.example.com:443: nothing listens there', fix: 'check that the target is up' };
    const r = evaluateGate({ run: empty, now: NOW, allowErrors: true, allowPartial: true });
    expect(r.ok).toBe(false);
    expect(r.reasons).toEqual([
      'the target could not be reached, no test ran: connection refused by staging.example.com:443: nothing listens there (fix: check that the target is up); --allow-errors tolerates a flaky target, not an outage',
    ]);
  });
});

describe('allow-list of known deviations', () => {
  test('an unexpired entry unblocks its clause (inclusive of the expiry day) and is listed as allowed', () => {
    const run = fixtureRun({ fail: ['5.1/bearer-401'] });
    for (const expires of ['2026-12-31', '2026-06-15']) {
      const r = evaluateGate({ run, deviations: [entry('5.1/bearer-401', expires)], now: NOW });
      expect(r.ok, expires).toBe(true);
      expect(r.notes[0]).toMatch(new RegExp(`^allowed: must clause 5\\.1/bearer-401 fails.*until ${expires}: vendor ticket 123`));
    }
  });

  test('an expired entry stops unblocking and says so', () => {
    const r = evaluateGate({ run: fixtureRun({ fail: ['5.1/bearer-401'] }), deviations: [entry('5.1/bearer-401', '2026-06-14')], now: NOW });
    expect(r.ok).toBe(false);
    expect(r.reasons[0]).toMatch(/allow-list entry expired on 2026-06-14, no longer unblocks: vendor ticket 123/);
  });

  test('an entry unblocks a regression too, but only for its own clause', () => {
    const run = fixtureRun({ fail: ['8/backoff-429', '5.1/bearer-401'] });
    const r = evaluateGate({ run, baseline: fixtureRun(), deviations: [entry('8/backoff-429', '2026-07-01')], now: NOW });
    expect(r.reasons).toEqual([expect.stringMatching(/^must clause 5\.1\/bearer-401 fails/)]);
    expect(r.notes).toContainEqual(expect.stringMatching(/^allowed: should clause 8\/backoff-429 regressed/));
  });

  test('entries for passing or unknown clauses are reported as no longer needed', () => {
    const r = evaluateGate({ run: fixtureRun(), deviations: [entry('5.1/bearer-401', '2026-12-31'), entry('9.9/gone', '2026-12-31')], now: NOW });
    expect(r.ok).toBe(true);
    expect(r.notes).toEqual([expect.stringMatching(/5\.1\/bearer-401 .*no longer needed/), expect.stringMatching(/9\.9\/gone names no clause/)]);
  });

  test('an entry limited to live runs does not unblock a simulator run', () => {
    const r = evaluateGate({
      run: fixtureRun({ fail: ['5.1/bearer-401'] }),
      deviations: [{ ...entry('5.1/bearer-401', '2026-12-31'), targets: ['live'] }],
      now: NOW,
    });
    expect(r.ok).toBe(false);
  });

  test('the allow-list file is checked: an entry without comment or with a bad date is refused', () => {
    const dir = scratchDir('gate-allow-');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ deviations: [{ clause: '5.1/bearer-401', expires: 'next year' }] }));
    expect(() => readKnownDeviations(bad)).toThrow(/must have required property 'comment'[\s\S]*must match format "date"/);
    expect(readKnownDeviations(join(process.cwd(), 'spec', 'known-deviations.json'))).toEqual(expect.any(Array));
  });
});

describe('npm run gate (command line)', () => {
  test('exit 1 with one BLOCK line per reason on a failing must clause', () => {
    const f = files(fixtureRun({ fail: ['5.1/bearer-401', '7/error-envelope'] }));
    const { code, lines } = cli(['--run', f.run, '--allow', f.allow, '--today', '2026-06-15']);
    expect(code).toBe(1);
    expect(lines.filter((l) => l.startsWith('gate: BLOCK'))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/^gate: FAIL/);
  });

  test('exit 1 on a regression against --baseline; exit 0 on a clean run against the same baseline', () => {
    const f = files(fixtureRun({ fail: ['8/backoff-429'] }), fixtureRun());
    const blocked = cli(['--run', f.run, '--baseline', f.baseline!, '--allow', f.allow]);
    expect(blocked.code).toBe(1);
    expect(blocked.lines[0]).toMatch(/^gate: BLOCK should clause 8\/backoff-429 regressed: pass → fail/);
    const g = files(fixtureRun(), fixtureRun());
    const clean = cli(['--run', g.run, '--baseline', g.baseline!, '--allow', g.allow]);
    expect(clean.code).toBe(0);
    expect(clean.lines.at(-1)).toMatch(/^gate: PASS .* 0 regressions$/);
  });

  test('honours and expires allow-list entries by --today', () => {
    const f = files(fixtureRun({ fail: ['5.1/bearer-401'] }), undefined, [entry('5.1/bearer-401', '2026-06-30')]);
    expect(cli(['--run', f.run, '--allow', f.allow, '--today', '2026-06-30']).code).toBe(0);
    const late = cli(['--run', f.run, '--allow', f.allow, '--today', '2026-07-01']);
    expect(late.code).toBe(1);
    expect(late.lines[0]).toMatch(/expired on 2026-06-30/);
  });

  test('--max-checked-drop sets the margin; a value that is not a number of points is bad input', () => {
    const f = files(fixtureRun({ error: ['5.1/bearer-401'] }), fixtureRun());
    const blocked = cli(['--run', f.run, '--baseline', f.baseline!, '--allow', f.allow, '--allow-errors']);
    expect(blocked.code).toBe(1);
    expect(blocked.lines.join('\n')).toMatch(/gate: BLOCK the share of must clauses checked fell .* 16\.7 points, more than the 10-point margin/);
    expect(blocked.lines.at(-1)).toMatch(/^gate: FAIL .* 1 unverified \(error\), .*must clauses checked 5 of 6/);
    expect(cli(['--run', f.run, '--baseline', f.baseline!, '--allow', f.allow, '--allow-errors', '--max-checked-drop', '20']).code).toBe(0);
    expect(cli(['--run', f.run, '--allow', f.allow, '--max-checked-drop', 'ten']).code).toBe(2);
    expect(cli(['--run', f.run, '--allow', f.allow, '--max-checked-drop', '101']).code).toBe(2);
  });

  test('exit 2 on a missing record or an unknown flag', () => {
    expect(cli(['--run', '/nonexistent/conformance.json']).code).toBe(2);
    expect(cli(['--frobnicate']).code).toBe(2);
  });
});
