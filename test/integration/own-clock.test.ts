/**
 * No false verdict from our own clock or a throttling gateway (issue 41), rehearsed on the checks
 * that gave one: the insights 404 window (4.5/insights-404-until-metrics), the per-tenant mint budget
 * (4.5/monitor-session-per-tenant) and the mint 429's body (4.5/monitor-session-429,
 * 7/monitor-429-top-level), in two nested runs of the three files that hold them, narrowed to
 * those clauses with `-t`, behind a stand-in gateway that throttles one request in ten in the API's
 * own envelope (the simulator's chaos mode, `placement: 'app'`, seeded):
 *
 * 1. against a conformant simulator, with the runner blocked for 400 ms inside every time window a
 *    check opens, as its first answer arrives (test/support/late-runner.mjs, preloaded into the
 *    nested run): the original false fail, a read believed to leave 1 ms after a call's end, whose
 *    check now ends in `error` naming the lateness: no `fail`; each
 *    test `pass` or `error` (what the runner's lateness or the gateway spoilt is no verdict);
 * 2. with three seeded real faults — insights served before their metrics land, the mint 429
 *    without a top-level retryAfterSeconds, the other key type with a budget of its own — still
 *    `fail`, each on its clause.
 */
import { expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { nestedTarget, runConformance } from './run-suite';
import type { RunRecord } from '../../helpers/report/model';

const FILES = ['suites/insights.test.ts', 'suites/monitoring.test.ts', 'suites/monitoring-limits.test.ts'];
/** The tests of the clauses that gave false verdicts (a test's name carries its clause ids). */
const NARROW = ['-t', 'insights-404-until-metrics|monitor-session-per-tenant|monitor-session-429'];
/** Of those, the ones that kill the three faults (by their names), so the faults' waits are not paid twice. */
const KILLERS = ['-t', 'insights are 404 right after|answers 429 with a top-level|per-tenant mint budget spent with'];
/** A gateway in front that throttles one request in ten in the API's envelope (RATE_LIMITED, Retry-After 0), seeded. */
const GATEWAY = { rate429: 0.1, placement: 'app', retryAfterSeconds: 0, seed: 20261127 };
/** How long the runner is blocked inside each window, ms: longer than the 300 ms insights delay of the run. */
const LATE_MS = 400;

const target = nestedTarget();
const config = target.config;

const env = target.env;
const line = (t: RunRecord['tests'][number]) => `${t.status}${t.ownSide ? ` (${t.ownSide})` : ''} ${t.name}: ${t.message?.slice(0, 300) ?? ''}`;

it('a late runner behind a throttling gateway gives no fail on a conformant target', async () => {
  await config({ faults: [], chaos: GATEWAY });
  const late = `${pathToFileURL(resolve('test/support/late-runner.mjs')).href}?ms=${LATE_MS}`;
  const run = await runConformance({ ...env(), NODE_OPTIONS: `--import ${late}` }, [...FILES, ...NARROW]);
  await config({ chaos: null });
  // The tests `-t` left out are recorded as skipped.
  const tests = (run.record?.tests ?? []).filter((t) => t.status !== 'skip');
  expect(tests.length, run.output.slice(-3000)).toBeGreaterThanOrEqual(5);
  expect(run.output, 'the runner was blocked inside the windows').toMatch(/late-runner: blocking \d+ for 400 ms/);
  expect(tests.filter((t) => t.status !== 'pass' && t.status !== 'error').map(line)).toEqual([]);
  console.log(`own clock: ${tests.map((t) => `${t.status}${t.ownSide ? `/${t.ownSide}` : ''}`).join(', ')}`);
});

it('real faults behind the same gateway are still fail, each on its clause', async () => {
  const faults = ['insights.available-early', 'monitoring.retry-after-in-error', 'monitoring.rate-per-key'];
  await config({ faults, chaos: GATEWAY });
  const run = await runConformance(env(), [...FILES, ...KILLERS]);
  await config({ faults: [], chaos: null });
  const tests = (run.record?.tests ?? []).filter((t) => t.status !== 'skip');
  expect(tests.length, run.output.slice(-3000)).toBeGreaterThanOrEqual(3);
  const failedOn = (clause: string) =>
    tests.filter((t) => t.status === 'fail' && t.checks.some((c) => !c.ok && c.level !== 'informational' && c.clauses.includes(clause)));
  expect(failedOn('4.5/insights-404-until-metrics').length, `insights served early:\n${tests.map(line).join('\n')}`).toBeGreaterThan(0);
  expect(failedOn('7/monitor-429-top-level').length, `the mint 429 without retryAfterSeconds:\n${tests.map(line).join('\n')}`).toBeGreaterThan(0);
  expect(failedOn('4.5/monitor-session-per-tenant').length, `a budget per key type:\n${tests.map(line).join('\n')}`).toBeGreaterThan(0);
});
