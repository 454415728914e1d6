import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadCompiledOnce, standaloneCodeOption, writeCompiledOnce } from '../../helpers/base/compiled-once';
import { compileEnvAtRunTime, compileEnvOnce, envValidatorsCompiledOnce } from '../../helpers/base/env';
import { ENV_VARS, type EnvName } from '../../helpers/base/env-vars';
import { compileAtRunTime, compileSchemasOnce, schemaDocument, schemaIds, schemaNames, validatorsCompiledOnce } from '../../helpers/spec/validator';

/** The cache folder of helpers/base/compiled-once.ts. */
const cacheDir = 'node_modules/.cache/core-api-conformance';

/** Seeded JSON values of every type, and objects, to judge with both validators. */
const SEED = 43;
const values = (extra: unknown[]): unknown[] => [
  ...extra,
  ...fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: SEED, numRuns: 60 }),
  ...fc.sample(fc.object({ maxDepth: 2 }), { seed: SEED, numRuns: 30 }),
];

/** What a validator says of `v`: its verdict and its errors (a fresh copy of `v` each time: coercion changes it). */
function judged(fn: (v: unknown) => unknown, v: unknown): string {
  const copy = v === undefined ? v : JSON.parse(JSON.stringify(v));
  const ok = fn(copy);
  return JSON.stringify({ ok, errors: (fn as { errors?: unknown }).errors ?? null, copy });
}

describe('validators compiled once per run (helpers/base/compiled-once.ts, issue 43)', () => {
  const SCHEMA = {
    $id: 'unit:compiled-once',
    type: 'object',
    required: ['url'],
    properties: { url: { type: 'string', format: 'uri' }, n: { type: 'integer', minimum: 1 }, tag: { $ref: '#/$defs/tag' } },
    $defs: { tag: { enum: ['a', 'b'] } },
  };
  const make = () => {
    const ajv = new Ajv({
      coerceTypes: true,
      allErrors: true,
      code: standaloneCodeOption(),
    });
    addFormats(ajv, ['uri']);
    ajv.addSchema(SCHEMA);
    return { ajv, ids: ['unit:compiled-once', 'unit:compiled-once#/$defs/tag'] };
  };

  it('a set written once loads as functions that judge as ajv compiled at run time, coercion and formats included', () => {
    expect(writeCompiledOnce('unit-test', 'fixed key', make)).toBe(true);
    const once = loadCompiledOnce('unit-test', 'fixed key');
    expect(once && [...once.keys()]).toEqual(['unit:compiled-once', 'unit:compiled-once#/$defs/tag']);
    const runtime = new Ajv({ coerceTypes: true, allErrors: true });
    addFormats(runtime, ['uri']);
    runtime.addSchema(SCHEMA);
    const samples = values([{ url: 'https://a.example/x', n: '3', tag: 'a' }, { url: 'not a uri', n: 0, tag: 'c' }, { n: 'x' }, 'a', 'c']);
    for (const id of once!.keys())
      for (const v of samples) expect(judged(once!.get(id)!, v), `${id} on ${JSON.stringify(v)}`).toBe(judged(runtime.getSchema(id)!, v));
    // Coercion happened in both: a string "3" became 3.
    expect(judged(once!.get('unit:compiled-once')!, { url: 'https://a.example/', n: '3' })).toContain('"n":3');
  });

  it('a set already in place is not made again; another key is another file', () => {
    expect(writeCompiledOnce('unit-test', 'fixed key', make)).toBe(true);
    expect(
      writeCompiledOnce('unit-test', 'fixed key', () => {
        throw new Error('made again');
      }),
    ).toBe(true);
    expect(loadCompiledOnce('unit-test', `another key ${randomUUID()}`)).toBeUndefined();
  });

  it('a set whose schema does not compile is not written, and the caller compiles at run time', () => {
    const key = `broken ${randomUUID()}`;
    const broken = () => ({ ajv: new Ajv({ code: { source: true } }), ids: ['unit:no-such-schema'] });
    expect(writeCompiledOnce('unit-test', key, broken)).toBe(false);
    expect(loadCompiledOnce('unit-test', key)).toBeUndefined();
  });

  it('a set written for a new key removes the files of its older keys', () => {
    expect(writeCompiledOnce('unit-prune', 'first key', make)).toBe(true);
    expect(loadCompiledOnce('unit-prune', 'first key')).toBeDefined();
    expect(writeCompiledOnce('unit-prune', 'second key', make)).toBe(true);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('unit-prune-'))).toHaveLength(1);
    expect(writeCompiledOnce('unit-prune', 'first key', make)).toBe(true);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('unit-prune-'))).toHaveLength(1);
  });

  it('schemas/ compiled once judge every value as ajv compiled at run time, for every id validate and findDrift use', () => {
    expect(compileSchemasOnce()).toBe(true);
    const once = validatorsCompiledOnce()!;
    const ids = schemaIds();
    expect(ids.length).toBeGreaterThan(2 * schemaNames().length);
    const examples = schemaNames().flatMap((n) => {
      const doc = schemaDocument(n)!;
      return [...((doc.examples as unknown[]) ?? []), ...Object.values(doc.properties ?? {}).flatMap((p: any) => p?.examples ?? [])];
    });
    const samples = values([{}, [], null, ...examples]);
    for (const id of ids) {
      const fn = once.get(id);
      expect(fn, id).toBeTypeOf('function');
      const runtime = compileAtRunTime(id);
      for (const v of samples) expect(judged(fn!, v), `${id} on ${JSON.stringify(v)}`).toBe(judged(runtime, v));
    }
  });

  it('every variable compiled once judges raw values as ajv compiled at run time (coercion included)', () => {
    expect(compileEnvOnce()).toBe(true);
    const once = envValidatorsCompiledOnce()!;
    const names = Object.keys(ENV_VARS) as EnvName[];
    expect([...once.keys()].sort()).toEqual([...names].sort());
    const raws = ['1', '0', '8', '-3', '1.5', 'abc', '', 'https://staging.example.com/api', 'ftp://x', 'default', 'alt', ['a', 'b'], []];
    for (const name of names)
      for (const raw of raws)
        expect(judged(once.get(name)!, { [name]: raw }), `${name}=${JSON.stringify(raw)}`).toBe(judged(compileEnvAtRunTime(name), { [name]: raw }));
  });
});
