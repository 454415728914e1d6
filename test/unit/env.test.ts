/**
 * The one reader of the environment (helpers/base/env.ts): each kind reads its values and refuses
 * the rest in one line naming the variable and what it accepts; an unset or empty variable reads as
 * its fallback; an alias wins over the name; a secret's value is never shown; a bad value stops the
 * run with exit status 2 before anything else happens.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { acceptsWords, checkEnv, EnvError, readEnv, schemaOf, secretsOfEnv } from '../../helpers/base/env';
import { envEntries } from '../../helpers/base/env-vars';

/** The message readEnv throws for `name` in `env`, or undefined when it reads. */
function refusal(name: Parameters<typeof readEnv>[0], env: Record<string, string>): string | undefined {
  try {
    readEnv(name, env);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(EnvError);
    return (e as Error).message;
  }
}

describe('the reader reads each kind', () => {
  it('integer: within its bounds, coerced; else one line naming the variable and the bounds', () => {
    expect(readEnv('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: '3' })).toBe(3);
    expect(readEnv('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: ' 12 ' })).toBe(12);
    expect(refusal('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: '-3' })).toBe(
      'CORE_API_CONCURRENCY=-3: expected an integer from 1 to 1000 (docs/configuration.md)',
    );
    expect(refusal('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: '2.5' })).toMatch(/^CORE_API_CONCURRENCY=2\.5: expected an integer from 1 to 1000/);
    expect(refusal('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: 'eight' })).toMatch(/^CORE_API_CONCURRENCY=eight: expected an integer/);
    expect(refusal('CORE_API_WEBHOOK_PORT', { CORE_API_WEBHOOK_PORT: '70000' })).toMatch(/expected an integer from 1 to 65535/);
    expect(readEnv('FC_SEED', { FC_SEED: '-1234567' })).toBe(-1234567);
  });

  it('number: fractions allowed, bounds kept (above 0 excludes 0)', () => {
    expect(readEnv('CORE_API_LANE_SETTLE_S', { CORE_API_LANE_SETTLE_S: '0.25' })).toBe(0.25);
    expect(refusal('CORE_API_LANE_SETTLE_S', { CORE_API_LANE_SETTLE_S: '0' })).toMatch(/^CORE_API_LANE_SETTLE_S=0: expected a number above 0/);
    expect(readEnv('CORE_API_LANE_WAIT_S', { CORE_API_LANE_WAIT_S: '0' })).toBe(0);
    expect(refusal('CORE_API_LANE_LEASE_S', { CORE_API_LANE_LEASE_S: '9' })).toMatch(/expected a number, 10 or more/);
    expect(refusal('CORE_API_REQUEST_TIMEOUT_MS', { CORE_API_REQUEST_TIMEOUT_MS: 'soon' })).toMatch(
      /^CORE_API_REQUEST_TIMEOUT_MS=soon: expected a number above 0/,
    );
  });

  it('boolean: 1 and 0 only (an opt-in is never turned on by a value that only looks like yes)', () => {
    expect(readEnv('CORE_API_ALLOW_SMS', { CORE_API_ALLOW_SMS: '1' })).toBe(true);
    expect(readEnv('CORE_API_ALLOW_SMS', { CORE_API_ALLOW_SMS: '0' })).toBe(false);
    expect(readEnv('CORE_API_ALLOW_SMS', {})).toBe(false);
    expect(readEnv('CONFORMANCE_ALLURE', {})).toBe(true);
    expect(readEnv('CONFORMANCE_ALLURE', { CONFORMANCE_ALLURE: '0' })).toBe(false);
    expect(refusal('CORE_API_ALLOW_SMS', { CORE_API_ALLOW_SMS: 'yes' })).toBe('CORE_API_ALLOW_SMS=yes: expected 1 or 0 (docs/configuration.md)');
  });

  it('list: split on commas and white space', () => {
    expect(readEnv('NO_PROXY', { NO_PROXY: 'localhost, .internal ,*.example.com' })).toEqual(['localhost', '.internal', '*.example.com']);
    expect(readEnv('NO_PROXY', {})).toBeUndefined();
  });

  it('URL: an absolute URL of the declared schemes', () => {
    expect(readEnv('CORE_API_BASE_URL', { CORE_API_BASE_URL: 'https://staging.example.com/core/' })).toBe('https://staging.example.com/core/');
    expect(refusal('CORE_API_BASE_URL', { CORE_API_BASE_URL: 'staging.example.com' })).toMatch(
      /^CORE_API_BASE_URL=staging\.example\.com: expected an http or https URL/,
    );
    expect(refusal('CORE_API_BASE_URL', { CORE_API_BASE_URL: 'ftp://example.com' })).toMatch(/expected an http or https URL/);
    expect(refusal('CORE_API_WEBHOOK_PUBLIC_URL', { CORE_API_WEBHOOK_PUBLIC_URL: 'http://hooks.example.com' })).toMatch(/expected an https URL/);
  });

  it('enum: one of its values', () => {
    expect(readEnv('CORE_API_SIM_PERSONALITY', { CORE_API_SIM_PERSONALITY: 'alt' })).toBe('alt');
    expect(readEnv('CORE_API_SIM_PERSONALITY', {})).toBe('default');
    expect(refusal('CORE_API_SIM_PERSONALITY', { CORE_API_SIM_PERSONALITY: 'ALT' })).toMatch(/expected one of default, alt/);
  });

  it('string: as set, trimmed; an empty or blank value is unset and reads as the fallback', () => {
    expect(readEnv('CONFORMANCE_REPORT_DIR', { CONFORMANCE_REPORT_DIR: ' out ' })).toBe('out');
    expect(readEnv('CONFORMANCE_REPORT_DIR', { CONFORMANCE_REPORT_DIR: '' })).toBe('reports');
    expect(readEnv('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: '   ' })).toBe(8);
    expect(readEnv('FC_PATH', {})).toBeUndefined();
  });
});

describe('the schema of each variable is a valid JSON schema (the reader does not check it at run time)', () => {
  it('every declaration builds a schema the draft-07 meta-schema and strict mode accept', () => {
    const ajv = new Ajv({ strict: true, coerceTypes: true });
    addFormats(ajv, ['uri']);
    for (const v of envEntries()) {
      expect(ajv.validateSchema(schemaOf(v)), `${v.name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile({ type: 'object', properties: { [v.name]: schemaOf(v) } }), v.name).not.toThrow();
    }
    // A schema the meta-schema refuses is reported: the check above can fail.
    expect(ajv.validateSchema({ type: 'integer', minimum: 'one' })).toBe(false);
  });

  it('reads the same value twice the same way, and a list afresh each time', () => {
    const env = { CORE_API_CONCURRENCY: '8', NO_PROXY: 'a,b' };
    expect(readEnv('CORE_API_CONCURRENCY', env)).toBe(8);
    expect(readEnv('CORE_API_CONCURRENCY', env)).toBe(8);
    const first = readEnv('NO_PROXY', env)!;
    first.push('c');
    expect(readEnv('NO_PROXY', env)).toEqual(['a', 'b']);
    expect(() => readEnv('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: '-3' })).toThrow(EnvError);
    expect(() => readEnv('CORE_API_CONCURRENCY', { CORE_API_CONCURRENCY: '-3' })).toThrow(EnvError);
  });
});

describe('aliases, secrets and the whole environment', () => {
  it('a set alias wins over the name (undici reads the lower-case proxy variables first)', () => {
    expect(readEnv('HTTPS_PROXY', { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128' })).toBe('http://lower:3128');
    expect(readEnv('HTTPS_PROXY', { HTTPS_PROXY: 'http://upper:3128', https_proxy: '' })).toBe('http://upper:3128');
  });

  it("a secret's value is never shown in the line, and the line names the alias that holds it", () => {
    const message = refusal('HTTPS_PROXY', { https_proxy: 'user:hunter2@proxy' });
    expect(message).toBe('https_proxy (value not shown): expected an http or https URL (docs/configuration.md)');
    expect(message).not.toContain('hunter2');
  });

  it('checkEnv names every bad variable, one error each, and nothing for a good environment', () => {
    const bad = checkEnv({ CORE_API_CONCURRENCY: '-3', CORE_API_ALLOW_SMS: 'true', CORE_API_LANES: '3', UNDECLARED: 'x' });
    expect(bad.map((e) => e.variable)).toEqual(['CORE_API_ALLOW_SMS', 'CORE_API_CONCURRENCY']);
    expect(checkEnv({ CORE_API_CONCURRENCY: '3', CORE_API_BASE_URL: 'http://127.0.0.1:4010' })).toEqual([]);
  });

  it('secretsOfEnv gives the declared secrets and any CORE_API_*KEY* variable, nothing else', () => {
    const found = secretsOfEnv({ CORE_API_TENANT_KEY: 'tk', CORE_API_MY_OWN_KEY: 'mine', CORE_API_TENANT_ID: 'id', HTTPS_PROXY: 'http://u:p@proxy' });
    expect(found.map((s) => s.name).sort()).toEqual(['CORE_API_MY_OWN_KEY', 'CORE_API_TENANT_KEY', 'HTTPS_PROXY']);
  });

  it('every declared fallback is a value its own kind accepts', () => {
    for (const v of envEntries()) {
      if (!('fallback' in v) || v.fallback === undefined) continue;
      const raw = v.type === 'boolean' ? (v.fallback ? '1' : '0') : Array.isArray(v.fallback) ? v.fallback.join(',') : String(v.fallback);
      expect(refusal(v.name, { [v.name]: raw }), `${v.name}: ${acceptsWords(v)}`).toBeUndefined();
    }
  });
});

describe('a bad value stops the run at its start', () => {
  it('CORE_API_CONCURRENCY=-3: vitest.config.ts stops with exit status 2 and one line naming the variable', () => {
    const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'list', '--project', 'unit', 'test/unit/env.test.ts'], {
      env: { ...process.env, CORE_API_CONCURRENCY: '-3' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l.includes('CORE_API_CONCURRENCY'));
    expect(lines).toEqual(['conformance: CORE_API_CONCURRENCY=-3: expected an integer from 1 to 1000 (docs/configuration.md)']);
  });
});
