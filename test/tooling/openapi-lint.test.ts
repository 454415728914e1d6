/**
 * The OpenAPI document the suite publishes passes the linters integrators run: Redocly's
 * recommended ruleset (redocly.yaml) and Spectral's `spectral:oas` (.spectral.yaml), with zero
 * errors and zero warnings; every rule turned off is listed in those files with its reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { assembleOpenApi } from '../../helpers/openapi/assemble';
import { scratchDir } from '../support/scratch';

let file: string;
beforeAll(() => {
  file = join(scratchDir('openapi-lint-'), 'openapi.json');
  writeFileSync(file, JSON.stringify(assembleOpenApi({ version: '0.0.0-lint' }).document, null, 2));
});

/** Runs a linter binary of node_modules/.bin; answers its exit code and output. */
function lint(bin: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(resolve('node_modules/.bin', bin), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 }) };
  } catch (e: any) {
    return { code: e.status ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('OpenAPI document (npm run openapi) under the ecosystem linters', () => {
  it('@redocly/cli lint (recommended): no error, no warning', () => {
    const r = lint('redocly', ['lint', file, '--config', resolve('redocly.yaml'), '--format', 'stylish']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toMatch(/\bwarning\b/);
  }, 120_000);

  it('spectral lint (spectral:oas): no error, no warning', () => {
    const r = lint('spectral', ['lint', file, '--ruleset', resolve('.spectral.yaml'), '--fail-severity', 'warn']);
    expect(r.code, r.out).toBe(0);
  }, 120_000);
});
