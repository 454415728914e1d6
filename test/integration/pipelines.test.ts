/**
 * The nightly and pre-release pipelines, rehearsed end to end from their own YAML
 * (test/integration/rehearse.ts): three shards into per-shard folders, the merge, the previous
 * night's run as baseline, the job summary and the gate; then the pre-release gate. Against a clean
 * simulator every gate passes; with a simulator fault switched on, the gates block (exit 1).
 *
 * Each run serves more than one check, so the whole suite runs as few times as possible:
 * - the first night runs against the simulator's second reading of the spec (the alt personality,
 *   simulator/src/personality.ts), so it also proves specificity (§9.4 and every "not shown"): the
 *   whole suite gives no `fail` and no `error` verdict there, and a test that passes only on the
 *   default reading shows up here;
 * - its three shards prove what `vitest --shard` with the clause reporter must give the merge: a
 *   record per shard, naming its shard, over disjoint files, joined into one record and one set of
 *   Allure results.
 *
 * The runs after the first night write no Allure results (`CONFORMANCE_ALLURE=0`): only the first
 * night's are checked. The runs go one after the other: side by side they would load the machine
 * enough to stretch the webhook retry waits that the suite times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { rehearse, type Rehearsal } from './rehearse';
import { ALLURE_VAR } from '../../helpers/report/env';
import { readRunRecord } from '../../helpers/report/record-io';
import type { RunRecord } from '../../helpers/report/model';

const NIGHTLY = '.github/workflows/nightly-staging.yml';
const RELEASE = '.github/workflows/pre-release-gate.yml';

let sim: RunningSimulator;
/** The simulator of the first night: the alt personality, the spec's other careful reading. */
let alt: RunningSimulator;
/** Switches simulator faults on (or off with []). */
async function faults(names: string[]): Promise<void> {
  const r = await request(`${sim.controlUrl}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faults: names }),
  });
  await r.body.text();
  expect(r.statusCode).toBe(200);
}
/**
 * Environment of an external-simulator target (the workflows' secrets are empty here). The robustness
 * phase sends its hostile inputs to every fourth route (CORE_API_FUZZ_STRIDE): every test and check
 * still runs, at a quarter of its requests; the main conformance run of `npm test` sends them all.
 */
const target = (s: RunningSimulator = sim) => ({ CORE_API_BASE_URL: s.baseUrl, CORE_API_CONTROL_URL: s.controlUrl, CORE_API_FUZZ_STRIDE: '4' });
/** The same, for the runs whose Allure results nothing reads. */
const targetWithoutAllure = () => ({ ...target(), [ALLURE_VAR]: '0' });
const gateStep = (r: Rehearsal) => r.steps.filter((s) => s.step.startsWith('npm run gate'));

let firstNight: Rehearsal;

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  alt = await startSimulator({ host: '127.0.0.1', port: 0, personality: 'alt' });
});
afterAll(async () => {
  await sim?.close();
  await alt?.close();
});

describe('nightly-staging, rehearsed from its YAML', () => {
  it('first night, clean target (alt personality): three shards, merged without a baseline, summary written, gate passes', async () => {
    firstNight = await rehearse(NIGHTLY, { env: target(alt) });
    const shards = firstNight.steps.filter((s) => s.step.startsWith('npm run conformance'));
    expect(shards.map((s) => s.step.match(/--shard=(\d)\/3/)?.[1])).toEqual(['1', '2', '3']);
    for (const s of shards) expect(s.code, s.output.slice(-1500)).toBe(0);
    const merge = firstNight.steps.find((s) => s.step.startsWith('npm run report:merge'))!;
    expect(merge.code, merge.output).toBe(0);
    expect(merge.output).toMatch(/no baseline/);
    expect(merge.output).toMatch(/3 records/);
    expect(firstNight.summary).toMatch(/conformance|Conformance/);
    const [gate] = gateStep(firstNight);
    expect(gate.code, gate.output).toBe(0);
    expect(gate.output).toMatch(/gate: PASS/);
    const merged: RunRecord = JSON.parse(readFileSync(join(firstNight.reports, 'conformance.json'), 'utf8'));
    expect(merged.summary.failed).toBe(0);
    expect(existsSync(join(firstNight.artifacts, 'conformance-report-node22', 'conformance.json'))).toBe(true);

    // Specificity: against the alt reading the whole suite gives no fail and no error verdict.
    const bad = merged.tests.filter((t) => t.status === 'fail' || t.status === 'error');
    expect(bad.map((t) => `${t.status}: ${t.name}: ${t.message?.slice(0, 400)}`)).toEqual([]);
    expect(merged.summary.passed, 'the run is not empty').toBeGreaterThan(1_000);
    // The skips are the ones a default run has too (not testable, informational preconditions), not new ones.
    const skipped = merged.tests.filter((t) => t.status === 'skip').map((t) => t.name);
    expect(skipped.length, `skipped: ${skipped.join('; ')}`).toBeLessThan(5);

    // Shards: each record names its shard, the shards hold disjoint files, the merge joins them.
    const records = [1, 2, 3].map((i) => readRunRecord(join(firstNight.artifacts, `shard-node22-${i}`, 'conformance.json')));
    expect(records.map((r) => r.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })));
    const files = records.map((r) => new Set(r.tests.map((t) => t.file)));
    for (const [i, a] of files.entries()) for (const b of files.slice(i + 1)) expect([...a].filter((f) => b.has(f))).toEqual([]);
    expect(merged.summary.total).toBe(records.reduce((n, r) => n + r.summary.total, 0));
    expect(new Set(merged.tests.map((t) => t.file))).toEqual(new Set(files.flatMap((f) => [...f])));
    expect(readdirSync(join(firstNight.reports, 'allure-results')).length).toBeGreaterThan(0);
  }, 600_000);

  it('next night with a fault on: compared with the first night, the gate blocks (exit 1) and names the regression', async () => {
    await faults(['auth.accept-bearer']);
    try {
      const night = await rehearse(NIGHTLY, { env: targetWithoutAllure(), previous: firstNight.artifacts });
      const merge = night.steps.find((s) => s.step.startsWith('npm run report:merge'))!;
      expect(merge.code, merge.output).toBe(0);
      expect(merge.output).not.toMatch(/no baseline/);
      const [gate] = gateStep(night);
      expect(gate.code, gate.output).toBe(1);
      expect(gate.output).toMatch(/BLOCK must clause 5\.1\/[\w-]+ fails \(regressed: pass → fail\)/);
      expect(night.summary).toMatch(/Regressions/);
    } finally {
      await faults([]);
    }
  }, 600_000);
});

describe('pre-release-gate, rehearsed from its YAML', () => {
  it('clean release candidate: the gate passes (exit 0) against the last nightly', async () => {
    await faults([]);
    const r = await rehearse(RELEASE, { env: targetWithoutAllure(), previous: firstNight.artifacts, inputs: { baseline_run_id: '1' } });
    const [gate] = gateStep(r);
    expect(gate.code, r.steps.map((s) => `${s.step}: ${s.code}`).join('\n') + gate.output).toBe(0);
  }, 600_000);

  it('release candidate with a fault on: the gate blocks (exit 1)', async () => {
    await faults(['envelope.drop-version']);
    try {
      const r = await rehearse(RELEASE, { env: targetWithoutAllure(), previous: firstNight.artifacts, inputs: { baseline_run_id: '1' } });
      const [gate] = gateStep(r);
      expect(gate.code, gate.output).toBe(1);
      expect(gate.output).toMatch(/BLOCK/);
    } finally {
      await faults([]);
    }
  }, 600_000);
});
