/**
 * The type check of the whole project (`tsc -p .`: suites, helpers, simulator, tests, scripts,
 * benchmarks), as a test so that it runs beside the other tests instead of before them. The
 * compiler is TypeScript 7's native one (the `typescript-native` alias of typescript@7): it checks
 * the project in about a quarter of TypeScript 5's CPU time, ~5 s against ~21 s
 * (docs/benchmarks.md). TypeScript 5.9 stays installed as `typescript` for the programs that use its
 * JavaScript API, which TypeScript 7 does not offer yet (typescript-eslint, the function-length and
 * docs scanners). Incremental: the compiler keeps its build information in
 * node_modules/.cache/conformance/, so a second run checks only what changed. Fails with the
 * compiler's diagnostics.
 */
import { expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');

test('the project type-checks (tsc -p .)', async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');
  const buildInfo = join(ROOT, 'node_modules', '.cache', 'conformance', 'tsconfig.tsbuildinfo');
  const result = await promisify(execFile)(process.execPath, [tsc, '-p', '.', '--incremental', '--tsBuildInfoFile', buildInfo, '--pretty', 'false'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => ({ code: 0, output: '' }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
  expect(result.output.trim().split('\n').filter(Boolean), 'tsc diagnostics').toEqual([]);
  expect(result.code).toBe(0);
}, 180_000);
