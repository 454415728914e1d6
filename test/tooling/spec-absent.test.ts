/**
 * Every test that needs the spec document skips when it is absent, with one line saying where it
 * looked (docs/targets.md, "The spec document"). The spec-dependent test files are found mechanically: every
 * test file that imports the spec reader (helpers/spec/spec-doc). They run once more, in a child
 * vitest, with CORE_API_SPEC naming a file that does not exist; the child must end with no failure,
 * and each of those files with at least one skip. A new spec-dependent test that forgets to skip
 * fails here, on a machine that has the spec.
 */
import { describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { suiteFreeEnv } from '../../tools/mutation/run';
import { scratchDir } from '../support/scratch';

const ROOT = resolve(__dirname, '..', '..');
const SELF = relative(ROOT, __filename);

/** Test files (`*.test.ts`) below `dir`, relative to the project root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? testFiles(p) : p.endsWith('.test.ts') ? [relative(ROOT, p)] : [];
  });
}

/** The test files of the unit, tooling and integration projects that read the spec document. */
const specDependent = [...testFiles(join(ROOT, 'test')), ...testFiles(join(ROOT, 'simulator', 'test'))]
  .filter((f) => f !== SELF)
  .filter((f) => /from '[./]*\/helpers\/spec\/spec-doc'/.test(readFileSync(join(ROOT, f), 'utf8')))
  .sort();

/** The parts of vitest's JSON report this check reads. */
interface JsonReport {
  numFailedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { status: string; fullName: string; failureMessages: string[] }[] }[];
}

describe('without the spec document', () => {
  test('the spec-dependent test files are found (they import helpers/spec/spec-doc)', () => {
    expect(specDependent.length).toBeGreaterThanOrEqual(4);
  });

  test('every spec-dependent test file skips, and none fails, when CORE_API_SPEC names a missing file', async () => {
    const dir = scratchDir('spec-absent-');
    try {
      const out = join(dir, 'report.json');
      const env = { ...suiteFreeEnv(), CORE_API_SPEC: join(dir, 'no-such-spec.md'), CONFORMANCE_REPORT_DIR: dir, FORCE_COLOR: '0' };
      const args = [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'unit',
        '--project',
        'tooling',
        '--project',
        'integration',
        '--reporter=json',
        `--outputFile=${out}`,
        ...specDependent,
      ];
      const child = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }).then(
        () => ({ code: 0, output: '' }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
      );
      const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
      const failures = report.testResults.flatMap((f) => [
        ...(f.status === 'failed' && f.message ? [`${relative(ROOT, f.name)}: ${f.message}`] : []),
        ...f.assertionResults
          .filter((a) => a.status === 'failed')
          .map((a) => `${relative(ROOT, f.name)} › ${a.fullName}: ${a.failureMessages[0]?.split('\n')[0]}`),
      ]);
      expect(failures, child.output.slice(-2000)).toEqual([]);
      expect(child.code, child.output.slice(-2000)).toBe(0);
      const withoutSkip = report.testResults
        .filter((f) => !f.assertionResults.some((a) => a.status === 'skipped' || a.status === 'pending'))
        .map((f) => relative(ROOT, f.name));
      expect(withoutSkip, 'files that read the spec but skip nothing without it').toEqual([]);
      expect(report.testResults.map((f) => relative(ROOT, f.name)).sort()).toEqual(specDependent);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
