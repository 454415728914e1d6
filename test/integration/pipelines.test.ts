/**
 * The nightly and pre-release pipelines, rehearsed end to end from their own YAML
 * (test/integration/rehearse.ts): three shards into per-shard folders, the merge, the previous
 * night's run as baseline, the job summary and the gate; then the pre-release gate. Against a clean
 * simulator every gate passes; with a simulator fault switched on, the gates block (exit 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { rehearse, type Rehearsal } from './rehearse';

const NIGHTLY = '.github/workflows/nightly-staging.yml';
const RELEASE = '.github/workflows/pre-release-gate.yml';

let sim: RunningSimulator;
/** Switches simulator faults on (or off with []). */
async function faults(names: string[]): Promise<void> {
  const r = await request(`${sim.controlUrl}/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: names }) });
  await r.body.text();
  expect(r.statusCode).toBe(200);
}
/** Environment of an external-simulator target (the workflows' secrets are empty here). */
const target = () => ({ CORE_API_BASE_URL: sim.baseUrl, CORE_API_CONTROL_URL: sim.controlUrl });
const gateStep = (r: Rehearsal) => r.steps.filter((s) => s.step.startsWith('npm run gate'));

let firstNight: Rehearsal;

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

describe('nightly-staging, rehearsed from its YAML', () => {
  it('first night, clean target: three shards, merged without a baseline, summary written, gate passes', async () => {
    await faults([]);
    firstNight = await rehearse(NIGHTLY, { env: target() });
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
    const merged = JSON.parse(readFileSync(join(firstNight.reports, 'conformance.json'), 'utf8'));
    expect(merged.summary.failed).toBe(0);
    expect(existsSync(join(firstNight.artifacts, 'conformance-report-node22', 'conformance.json'))).toBe(true);
  }, 600_000);

  it('next night with a fault on: compared with the first night, the gate blocks (exit 1) and names the regression', async () => {
    await faults(['auth.accept-bearer']);
    try {
      const night = await rehearse(NIGHTLY, { env: target(), previous: firstNight.artifacts });
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
    const r = await rehearse(RELEASE, { env: target(), previous: firstNight.artifacts, inputs: { baseline_run_id: '1' } });
    const [gate] = gateStep(r);
    expect(gate.code, r.steps.map((s) => `${s.step}: ${s.code}`).join('\n') + gate.output).toBe(0);
  }, 600_000);

  it('release candidate with a fault on: the gate blocks (exit 1)', async () => {
    await faults(['envelope.drop-version']);
    try {
      const r = await rehearse(RELEASE, { env: target(), previous: firstNight.artifacts, inputs: { baseline_run_id: '1' } });
      const [gate] = gateStep(r);
      expect(gate.code, gate.output).toBe(1);
      expect(gate.output).toMatch(/BLOCK/);
    } finally {
      await faults([]);
    }
  }, 600_000);
});
