/**
 * The CI workflows are proven, not just written: every file under .github/workflows/ parses and
 * validates against GitHub's workflow schema (@action-validator/core, which bundles SchemaStore's
 * schema and checks expressions), runs on current Node LTS releases, and every `npm run <script>`
 * step names a script package.json has.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

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
      expect([...versions].sort()).toEqual(['22', '24']);
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
});
