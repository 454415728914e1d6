/**
 * The named verifiers (helpers/checks/engine.ts over helpers/checks/judgments.ts): each recurring judgment both
 * passes and fails, and a failure words expected against actual without the suite writing them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifier, type Verify } from '../../helpers/checks/engine';
import type { ApiResponse } from '../../helpers/base/exchange';
import { fieldNamed } from '../../helpers/checks/judgments';

function answer(status: number, json: unknown): ApiResponse {
  return { status, headers: {}, text: JSON.stringify(json), json, durationMs: 1, retries: 0, request: { method: 'POST', path: '/calls', headers: {} } };
}

/** The failure message of `fn`, or undefined when it passed. */
function failure(fn: (v: Verify) => void): string | undefined {
  try {
    fn(verifier('4.5/calls-readable'));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const refusal = (status: number, details?: unknown) => answer(status, { success: false, error: { code: 'VALIDATION_ERROR', message: 'x', details } });

describe('named verifiers', () => {
  it('refused: any 4xx, except the statuses named; the requirement is derived', () => {
    expect(failure((v) => v.refused(answer(409, { error: 'conflict' })))).toBeUndefined();
    expect(failure((v) => v.refused(answer(201, { success: true, data: {} })))).toMatch(
      /POST \/calls is refused with a 4xx\n {2}expected: a 4xx refusal\n {2}actual: {3}201/,
    );
    expect(failure((v) => v.refused(answer(429, { error: 'rate_limited' }), 'a further mint is refused', [429]))).toMatch(/a 4xx refusal other than 429/);
  });

  it('contains and lacks: an exact string value anywhere, a property name with keys, a substring with text', () => {
    const data = { calls: [{ id: 'c-1' }, { id: 'c-2' }], byId: { 'c-9': {} } };
    expect(failure((v) => v.contains('listed', data, 'c-2'))).toBeUndefined();
    expect(failure((v) => v.contains('listed', data, 'c-3'))).toMatch(/expected: "c-3" in the answer\n {2}actual: {3}rows with ids \["c-1","c-2"\]/);
    expect(failure((v) => v.contains('listed', data, 'c-9'))).toBeDefined();
    expect(failure((v) => v.contains('listed', data, 'c-9', undefined, { keys: true }))).toBeUndefined();
    expect(failure((v) => v.contains('in the body', '{"url":"https://h/c-7/x"}', 'c-7', undefined, { text: true }))).toBeUndefined();
    expect(failure((v) => v.lacks('gone', data, 'c-1'))).toMatch(/expected: no "c-1" in the answer/);
    expect(failure((v) => v.lacks('gone', data, 'c-3'))).toBeUndefined();
  });

  it('none and every: count the offenders and show the first three', () => {
    expect(failure((v) => v.none('no delivery', [], 'no delivery to the host'))).toBeUndefined();
    expect(failure((v) => v.none('no delivery', ['a', 'b', 'c', 'd'], 'no delivery to the host'))).toMatch(/actual: {3}4 found: "a"; "b"; "c"; …/);
    const rows = [{ type: 'chat' }, { type: 'voice_persona' }, { type: 'chat' }];
    expect(failure((v) => v.every('every row has type chat', rows, (r) => r.type === 'chat', 'type chat on every row'))).toMatch(
      /actual: {3}1 of 3 not: \{"type":"voice_persona"\}/,
    );
    expect(failure((v) => v.every('every row has type chat', rows.slice(0, 1), (r) => r.type === 'chat', 'type chat on every row'))).toBeUndefined();
  });

  it('arrived: what was waited for came; otherwise the words of what came instead', () => {
    expect(failure((v) => v.arrived('a 429 past the budget', answer(429, {}), 'a 429 by mint 31', 'no 429'))).toBeUndefined();
    expect(failure((v) => v.arrived('a 429 past the budget', undefined, 'a 429 by mint 31', '35 mints accepted'))).toMatch(/actual: {3}35 mints accepted/);
  });

  it('namesField: an entry naming the field, an enclosing field or a path through it; the requirement is derived', () => {
    expect(failure((v) => v.namesField(refusal(400, [{ field: 'settings.transferDialTimeout', message: 'x' }]), 'transferDialTimeout'))).toBeUndefined();
    expect(failure((v) => v.namesField(refusal(400, [{ field: 'ring_timeout', message: 'x' }]), ['transferSettings', 'ring_timeout']))).toBeUndefined();
    expect(failure((v) => v.namesField(refusal(400, [{ field: 'name', message: 'x' }]), ['idleTimeoutSeconds']))).toMatch(
      /error.details names idleTimeoutSeconds\n {2}expected: an entry whose field is idleTimeoutSeconds\n {2}actual: {3}\["name"\]/,
    );
    expect(failure((v) => v.namesField(refusal(400), 'name'))).toMatch(/actual: {3}error.details absent/);
  });

  it('fieldNamed reads a details field as a name or a path', () => {
    expect(fieldNamed('idleTimeoutSeconds', 'idleTimeoutSeconds')).toBe(true);
    expect(fieldNamed('body.settings.conversationConfig.interruptionPlan.minDuration', 'minDuration')).toBe(true);
    expect(fieldNamed('/transferSettings/x', 'x')).toBe(true);
    expect(fieldNamed('dictionarySettings.sttKeyterms[0]', 'sttKeyterms')).toBe(true);
    expect(fieldNamed('transferSettings.ring_timeout', 'transferSettings')).toBe(true);
    expect(fieldNamed('idleTimeoutSecondsX', 'idleTimeoutSeconds')).toBe(false);
    expect(fieldNamed(undefined, 'x')).toBe(false);
  });

  it('reads: a JSON type, presence, and [] among the cleared readings', () => {
    const data = { assistants: [], id: 'a-1', properties: null };
    expect(failure((v) => v.reads('an array', data, ['assistants'], { kind: 'type', type: 'array' }))).toBeUndefined();
    expect(failure((v) => v.reads('a string id', data, ['id'], { kind: 'type', type: 'object' }))).toMatch(/expected: an object\n {2}actual: {3}"a-1"/);
    expect(failure((v) => v.reads('present', data, ['properties'], { kind: 'present' }))).toBeUndefined();
    expect(failure((v) => v.reads('present', data, ['nope'], { kind: 'present' }))).toMatch(/actual: {3}absent/);
    expect(failure((v) => v.reads('emptied', data, ['assistants'], { kind: 'cleared', readings: ['null', 'empty-array'] }))).toBeUndefined();
    expect(failure((v) => v.reads('emptied', data, ['id'], { kind: 'cleared', readings: ['null', 'empty-array'] }))).toMatch(/cleared: null or \[\]/);
  });
});

/** Every .ts file under `dir`, recursively. */
function suiteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? suiteFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('suites name their judgments', () => {
  it('suites/ call verify.that (the one-off judgment) fewer than 40 times', () => {
    const root = resolve(__dirname, '..', '..', 'suites');
    const uses = suiteFiles(root).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\.that\(/.test(line) ? [`${f.slice(root.length + 1)}:${i + 1}`] : [])),
    );
    // A recurring judgment belongs in a named verifier (helpers/checks/judgments.ts, docs/writing-suites.md).
    expect(uses.length, uses.join('\n')).toBeLessThan(40);
  });
});

describe('the webhook verifiers keep one convention per module', () => {
  it('every verifyX of helpers/webhooks/verifiers.ts owns its clauses; every verifyX of watch.ts takes the Checks its caller bound', async () => {
    const own = await import('../../helpers/webhooks/verifiers');
    const watch = await import('../../helpers/webhooks/watch');
    const named = (m: object) => Object.entries(m).filter(([k, v]) => k.startsWith('verify') && typeof v === 'function');
    const unowned = named(own).filter(([, v]) => !Array.isArray((v as { clauses?: unknown }).clauses));
    expect(unowned.map(([k]) => k)).toEqual([]);
    expect(named(own).length).toBeGreaterThanOrEqual(10);
    const owning = named(watch).filter(([, v]) => (v as { clauses?: unknown }).clauses !== undefined);
    expect(owning.map(([k]) => k)).toEqual([]);
    expect(
      named(watch)
        .map(([k]) => k)
        .sort(),
    ).toEqual(['verifyArrival', 'verifyLoggedRetry', 'verifyNoRetry', 'verifySilence']);
  });
});
