/**
 * The per-test check context (helpers/checks/engine.ts `verifier`, handed to every clause test as
 * `verify`): checks carry the test's clause ids, expected and actual are derived, soft checks
 * record without stopping.
 */
import { describe, expect, it } from 'vitest';
import { ConformanceFailure, verifier } from '../../helpers/checks/engine';
import type { ApiResponse } from '../../helpers/base/exchange';
import { answerOf, documented, fields, WHOLE, WRITE_STAMPS } from '../../helpers/spec/documented';

function answer(status: number, json: unknown): ApiResponse {
  return { status, headers: {}, text: JSON.stringify(json), json, durationMs: 1, retries: 0, request: { method: 'GET', path: '/assistants', headers: {} } };
}

describe('verify', () => {
  it('error: derives the requirement, expected and actual, and names the test clauses', () => {
    const verify = verifier(['5.1/bearer-401']);
    let thrown: unknown;
    try {
      verify.error(answer(200, { success: true, data: [] }), 401, 'UNAUTHORIZED');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ConformanceFailure);
    const text = (thrown as Error).message;
    expect(text).toContain('[5.1/bearer-401] GET /assistants answers 401 UNAUTHORIZED');
    expect(text).toContain('expected: 401 UNAUTHORIZED');
    expect(text).toContain('actual:   200 (success envelope)');
    expect((thrown as ConformanceFailure).clauses).toEqual(['5.1/bearer-401']);
  });

  it('a passing check records its outcome on the clauses and does not throw', () => {
    const verify = verifier('7/error-envelope');
    verify.error(answer(404, { success: false, error: { code: 'NOT_FOUND', message: 'x' } }), 404, 'NOT_FOUND');
    const last = verify.record.checks.at(-1)!;
    expect(verify.record.checks.length).toBe(1);
    expect(last).toMatchObject({ clauses: ['7/error-envelope'], ok: true, requirement: 'GET /assistants answers 404 NOT_FOUND' });
  });

  it('soft: a failure is recorded and the test goes on', () => {
    const verify = verifier('2.1/success-envelope');
    expect(() => verify.soft.equal('success is true', false, true)).not.toThrow();
    const last = verify.record.checks.at(-1)!;
    expect(last.ok).toBe(false);
    expect(last.detail).toContain('expected: true');
  });

  it('on: the same checks naming other clause ids', () => {
    const test = verifier('5.1/bearer-401', { declared: ['5.1/bearer-401', '7/error-envelope', '2.1/json-envelope'] });
    const verify = test.on(['7/error-envelope', '2.1/json-envelope']);
    expect(verify.clauses).toEqual(['7/error-envelope', '2.1/json-envelope']);
    verify.that('holds', true, { expected: 'x', actual: 'x' });
    expect(test.record.checks.at(-1)!.clauses).toEqual(['7/error-envelope', '2.1/json-envelope']);
  });

  describe('unchanged: what is compared is a named shape, nothing left out by default', () => {
    const stored = { id: 'a-1', name: 'Front desk', updatedAt: '2026-01-01T00:00:00Z', revision: 1 };
    it('documented fields: an undocumented field may move, a documented one may not (updatedAt included)', () => {
      const verify = verifier('4.1/rejected-patch-changes-nothing');
      expect(() => verify.unchanged('nothing changed', stored, { ...stored, revision: 2 }, documented('assistant'))).not.toThrow();
      expect(() => verify.unchanged('nothing changed', stored, { ...stored, updatedAt: '2026-01-02T00:00:00Z' }, documented('assistant'))).toThrow(
        /expected: the documented fields of assistant, featureFlags aside as before \(absent and null alike\)\n {2}actual: {3}moved: updatedAt: "2026-01-01T00:00:00Z" → "2026-01-02T00:00:00Z"/,
      );
    });
    it('across a write, the named write stamps are left out, and so is the field the write set', () => {
      const verify = verifier('4.1/omitted-unchanged');
      const after = { ...stored, updatedAt: '2026-01-02T00:00:00Z' };
      expect(() => verify.unchanged('converges', stored, after, documented('assistant', WRITE_STAMPS))).not.toThrow();
      expect(() => verify.unchanged('others kept', stored, { ...after, name: 'Back desk' }, documented('assistant', [...WRITE_STAMPS, 'name']))).not.toThrow();
      expect(() => verify.unchanged('others kept', stored, { ...after, name: 'Back desk' }, documented('assistant', WRITE_STAMPS))).toThrow(
        /moved: name: "Front desk" → "Back desk"/,
      );
      expect(documented('assistant', WRITE_STAMPS).name).toBe('the documented fields of assistant, updatedAt, featureFlags aside');
    });
    it('fields, the whole value, and an answer as a reader sees it (status and data)', () => {
      const verify = verifier('5.7/no-cross-tenant-write');
      expect(() => verify.unchanged('kept', { a: 1, b: 2 }, { a: 1, b: 3, c: 4 }, fields(['a']))).not.toThrow();
      expect(() => verify.unchanged('kept', { a: 1 }, {}, fields(['a']))).toThrow(/moved: a: 1 → absent/);
      expect(() => verify.unchanged('null and absent alike', { a: null, b: 1 }, { b: 1 }, WHOLE)).not.toThrow();
      expect(() => verify.unchanged('whole', { a: 1 }, { a: 1, c: 4 }, WHOLE)).toThrow(/moved: c: absent → 4/);
      const read = (status: number, data: unknown) => answer(status, { success: status < 300, data });
      expect(() =>
        verify.unchanged('as B reads it', read(200, stored), read(200, { ...stored, revision: 9 }), answerOf(documented('assistant'))),
      ).not.toThrow();
      expect(() => verify.unchanged('as B reads it', read(200, stored), read(404, stored), answerOf(documented('assistant')))).toThrow(
        /moved: status: 200 → 404/,
      );
    });
  });

  it('reads: the value at a path reads as stated, expected and actual derived', () => {
    const verify = verifier('2.5/null-clears');
    const data = { transferSettings: { amd_detection: true }, firstMessage: null };
    expect(() => verify.reads('amd on', data, ['transferSettings', 'amd_detection'], { kind: 'equals', value: true })).not.toThrow();
    expect(() => verify.reads('cleared', data, ['firstMessage'], { kind: 'cleared', readings: ['null', 'absent'] })).not.toThrow();
    expect(() => verify.reads('gone', data, ['transferSettings'], { kind: 'cleared', readings: ['null', 'absent'] })).toThrow(
      /expected: cleared: null or absent\n {2}actual: {3}\{"amd_detection":true\}/,
    );
    expect(() => verify.reads('an absent value equals nothing', data, ['nope'], { kind: 'equals', value: undefined })).toThrow(/actual: {3}absent/);
    expect(verify.record.checks.map((c) => c.ok)).toEqual([true, true, false, false]);
  });

  it('refuses a verifier without clause ids', () => {
    expect(() => verifier([])).toThrow(/at least one clause/);
  });
});
