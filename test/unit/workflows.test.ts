/**
 * The CI workflows are proven, not just written: every file under .github/workflows/ parses and
 * validates against GitHub's workflow schema (@action-validator/core, which bundles SchemaStore's
 * schema and checks expressions), runs on current Node LTS releases, and every `npm run <script>`
 * step names a script package.json has. Against staging no workflow meets itself on the tenant
 * (docs/live-tenants.md, "Runs sharing one tenant"): the nightly runs one Node release, its shards
 * one after the other; the pre-release gate its two releases one after the other; both pass the
 * lane variables through.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { readLaneSettings } from '../../helpers/live/lanes';

const DIR = '.github/workflows';
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts ?? {});

/** Every step of every job of a parsed workflow. */
function steps(doc: any): any[] {
  return Object.values(doc.jobs ?? {}).flatMap((j: any) => j.steps ?? []);
}

describe('CI workflows', () => {
  it('there are the nightly and the pre-release workflows', () => {
    expect(files.sort()).toEqual(['nightly-staging.yml', 'pre-release-gate.yml']);
  });

  for (const f of files) {
    const src = readFileSync(join(DIR, f), 'utf8');

    it(`${f} is valid YAML and valid against the GitHub workflow schema`, () => {
      expect(() => parse(src)).not.toThrow();
      const { errors } = validateWorkflow(src);
      expect(errors.map((e) => `${'path' in e ? e.path : ''} ${e.title}: ${e.detail ?? ''}`)).toEqual([]);
    });

    it(`${f} runs on current Node LTS releases (22 and 24), never on Node 20 (end of life 2026-04-30)`, () => {
      const doc = parse(src);
      const versions = new Set<string>();
      for (const job of Object.values<any>(doc.jobs)) for (const v of job.strategy?.matrix?.node ?? []) versions.add(String(v));
      expect(versions.size).toBeGreaterThan(0);
      for (const v of versions) expect(['22', '24']).toContain(v);
      for (const s of steps(doc).filter((x) => String(x.uses ?? '').startsWith('actions/setup-node'))) {
        expect(String(s.with?.['node-version'])).toBe('${{ matrix.node }}');
      }
    });

    it(`${f}: every npm run step names a script of package.json`, () => {
      const runs = steps(parse(src))
        .map((s) => String(s.run ?? ''))
        .filter((r) => r.startsWith('npm run '));
      expect(runs.length).toBeGreaterThan(0);
      for (const r of runs) expect(scripts, r).toContain(r.split(/\s+/)[2]);
    });
  }

  it('the nightly lets unverified clauses pass as warnings and tolerates its first night; the pre-release gate fails closed', () => {
    const nightly = steps(parse(readFileSync(join(DIR, 'nightly-staging.yml'), 'utf8'))).map((s) => String(s.run ?? ''));
    const release = steps(parse(readFileSync(join(DIR, 'pre-release-gate.yml'), 'utf8'))).map((s) => String(s.run ?? ''));
    expect(nightly.find((r) => r.startsWith('npm run gate'))).toMatch(/--allow-errors/);
    expect(nightly.find((r) => r.startsWith('npm run gate'))).toMatch(/--baseline-optional/);
    const gate = release.find((r) => r.startsWith('npm run gate'));
    expect(gate).toBeDefined();
    expect(gate).not.toMatch(/--allow-errors|--baseline-optional/);
  });

  it('no workflow meets itself on the staging tenant: one Node release in the nightly, every staging job in turn, the lane variables passed', () => {
    const { lanes } = readLaneSettings({});
    for (const f of files) {
      const doc = parse(readFileSync(join(DIR, f), 'utf8'));
      for (const [name, job] of Object.entries<any>(doc.jobs)) {
        if (!steps({ jobs: { [name]: job } }).some((s) => String(s.run ?? '').startsWith('npm run conformance'))) continue;
        const m = job.strategy?.matrix ?? {};
        const combinations = Object.values<unknown[]>(m).reduce((n, values) => n * values.length, 1);
        const parallel = job.strategy?.['max-parallel'] ?? combinations;
        // One at a time leaves the other lanes to a pre-release gate or a person's run.
        expect(parallel, `${f} ${name}: staging jobs side by side`).toBe(1);
        expect(parallel).toBeLessThanOrEqual(lanes);
        expect(job.env?.CORE_API_LANES, `${f} ${name}`).toBe('${{ vars.CORE_API_LANES }}');
        expect(job.env?.CORE_API_LANE_WAIT_S, `${f} ${name}`).toBe('${{ vars.CORE_API_LANE_WAIT_S }}');
        if (f === 'nightly-staging.yml') expect(m.node, 'the nightly runs one Node release against staging').toHaveLength(1);
      }
    }
  });
});
