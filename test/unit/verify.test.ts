/**
 * The per-test check context (helpers/clause.ts `verifier`, handed to every clause test as
 * `verify`): checks carry the test's clause ids, expected and actual are derived, soft checks
 * record without stopping.
 */
import { describe, expect, it } from 'vitest';
import { ConformanceFailure, verifier } from '../../helpers/clause';
import { recordedChecks } from '../../helpers/recorder';
import type { ApiResponse } from '../../helpers/exchange';

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
    const before = recordedChecks().length;
    verifier('7/error-envelope').error(answer(404, { success: false, error: { code: 'NOT_FOUND', message: 'x' } }), 404, 'NOT_FOUND');
    const last = recordedChecks().at(-1)!;
    expect(recordedChecks().length).toBe(before + 1);
    expect(last).toMatchObject({ clauses: ['7/error-envelope'], ok: true, requirement: 'GET /assistants answers 404 NOT_FOUND' });
  });

  it('soft: a failure is recorded and the test goes on', () => {
    const verify = verifier('2.1/success-envelope');
    expect(() => verify.soft.equal('success is true', false, true)).not.toThrow();
    const last = recordedChecks().at(-1)!;
    expect(last.ok).toBe(false);
    expect(last.detail).toContain('expected: true');
  });

  it('on: the same checks naming other clause ids', () => {
    const verify = verifier('5.1/bearer-401').on(['7/error-envelope', '2.1/json-envelope']);
    expect(verify.clauses).toEqual(['7/error-envelope', '2.1/json-envelope']);
    verify.that('holds', true, { expected: 'x', actual: 'x' });
    expect(recordedChecks().at(-1)!.clauses).toEqual(['7/error-envelope', '2.1/json-envelope']);
  });

  it('refuses a verifier without clause ids', () => {
    expect(() => verifier([])).toThrow(/at least one clause/);
  });
});
