/**
 * The nightly and pre-release pipelines, rehearsed end to end from their own YAML
 * (test/integration/rehearse.ts): three shards into per-shard folders, the merge, the previous
 * night's run as baseline, the job summary and the gate; then the pre-release gate. Against a clean
 * simulator every gate passes; with a simulator fault switched on, the gates block (exit 1).
 *
 * A rehearsal proves a wiring with the smallest run that proves it: each run here is three suite
 * files ({@link FILES}, one per shard), and each fault switched on breaks a clause inside them
 * (`auth.accept-bearer` the auth file's 5.1/bearer-401; `envelope.drop-version` the envelope
 * audit of every answer and the envelope file's own clauses). The runs' gates get `--allow-partial`,
 * the one change a narrowed rehearsal makes to the YAML (rehearse.ts). The whole suite against the
 * alt personality, where the whole suite is the proof, is alt-personality.test.ts.
 *
 * The first night's three shards prove what `vitest --shard` with the clause reporter must give the
 * merge: a record per shard, naming its shard, over disjoint files, joined into one record and one
 * set of Allure results. The regression night runs the three files as one shard (`oneShard`): its
 * wiring, the previous night as baseline and the gate, does not depend on the sharding. The runs after the first night write no Allure results
 * (`CONFORMANCE_ALLURE=0`): only the first night's are checked. The runs go one after the other:
 * side by side they would load the machine enough to stretch the webhook retry waits that the suite times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { startSimulator, type RunningSimulator } from '../../simulator/src/server';
import { rehearse, type Rehearsal } from './rehearse';
import { readRunRecord } from '../../helpers/report/record-io';
import type { RunRecord } from '../../helpers/report/model';

const NIGHTLY = '.github/workflows/nightly-staging.yml';
const RELEASE = '.github/workflows/pre-release-gate.yml';

/**
 * The suite files every run of the rehearsal runs: three, so each shard of the nightly holds one;
 * the auth file holds the regression night's fault, and the envelope audit of every answer the
 * faulty release candidate's.
 */
const FILES = ['suites/auth.test.ts', 'suites/envelope.test.ts', 'suites/assistant-routes.test.ts'];

let sim: RunningSimulator;
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
 * Environment of an external-simulator target (the workflows' secrets are empty here). One suite
 * file at a time (CORE_API_FILE_WORKERS): a second worker costs ~1.3 s of CPU importing the suite's
 * modules again, and on this machine the rehearsal shares the cores with the rest of `npm test`.
 */
const target = () => ({ CORE_API_BASE_URL: sim.baseUrl, CORE_API_CONTROL_URL: sim.controlUrl, CORE_API_FILE_WORKERS: '1' });
/** The same, for the runs whose Allure results nothing reads. */
const targetWithoutAllure = () => ({ ...target(), CONFORMANCE_ALLURE: '0' });
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
    firstNight = await rehearse(NIGHTLY, { env: target(), suiteFiles: FILES });
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
    expect(existsSync(join(firstNight.artifacts, 'conformance-report', 'conformance.json'))).toBe(true);

    // Shards: each record names its shard, the shards hold disjoint files, the merge joins them.
    const records = [1, 2, 3].map((i) => readRunRecord(join(firstNight.artifacts, `shard-${i}`, 'conformance.json')));
    expect(records.map((r) => r.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })));
    const files = records.map((r) => new Set(r.tests.map((t) => t.file)));
    for (const f of files) expect(f.size, 'every shard ran a file').toBeGreaterThan(0);
    for (const [i, a] of files.entries()) for (const b of files.slice(i + 1)) expect([...a].filter((f) => b.has(f))).toEqual([]);
    expect([...new Set(merged.tests.map((t) => t.file))].sort(), 'the rehearsal ran its files, no others').toEqual([...FILES].sort());
    expect(merged.summary.total).toBe(records.reduce((n, r) => n + r.summary.total, 0));
    expect(new Set(merged.tests.map((t) => t.file))).toEqual(new Set(files.flatMap((f) => [...f])));
    expect(readdirSync(join(firstNight.reports, 'allure-results')).length).toBeGreaterThan(0);
  }, 600_000);

  it('next night with a fault on: compared with the first night, the gate blocks (exit 1) and names the regression', async () => {
    await faults(['auth.accept-bearer']);
    try {
      // One shard holding the three files: the sharding was proven the first night; this night proves the baseline and the gate.
      const night = await rehearse(NIGHTLY, { env: targetWithoutAllure(), previous: firstNight.artifacts, suiteFiles: FILES, oneShard: true });
      const merge = night.steps.find((s) => s.step.startsWith('npm run report:merge'))!;
      expect(merge.code, merge.output).toBe(0);
      expect(merge.output).not.toMatch(/no baseline/);
      expect(night.steps.filter((s) => s.step.startsWith('npm run conformance')).map((s) => s.step)).toEqual([`npm run conformance -- ${FILES.join(' ')}`]);
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
    const r = await rehearse(RELEASE, { env: targetWithoutAllure(), previous: firstNight.artifacts, inputs: { baseline_run_id: '1' }, suiteFiles: FILES });
    const [gate] = gateStep(r);
    expect(gate.code, r.steps.map((s) => `${s.step}: ${s.code}`).join('\n') + gate.output).toBe(0);
    expect(gate.output).toMatch(/gate: PASS .*: 0 regressions/);
  }, 600_000);

  it('release candidate with a fault on: the gate blocks (exit 1)', async () => {
    await faults(['envelope.drop-version']);
    try {
      const r = await rehearse(RELEASE, { env: targetWithoutAllure(), previous: firstNight.artifacts, inputs: { baseline_run_id: '1' }, suiteFiles: FILES });
      const [gate] = gateStep(r);
      expect(gate.code, gate.output).toBe(1);
      expect(gate.output).toMatch(/BLOCK must clause (2\.1\/metadata-required|9\.1\/version-every-response) fails/);
    } finally {
      await faults([]);
    }
  }, 600_000);
});
