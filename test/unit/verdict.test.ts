/** helpers/report/verdict.ts: one case per verdict, and the cases that decide between fail and error. */
import { describe, expect, it } from 'vitest';
import { setUpFailure, testVerdict, type SetUpParent } from '../../helpers/report/verdict';
import { CONTROL_ERROR_NAME, OUT_OF_TIME_ERROR_NAME, TARGET_ERROR_NAME } from '../../helpers/error-names';
import { CONFORMANCE_FAILURE_NAME, OutOfTimeError } from '../../helpers/clause';
import { TargetError } from '../../helpers/client';
import { ControlError } from '../../helpers/control';

describe('testVerdict', () => {
  it('pass: the test passed (recorded target trouble it recovered from does not matter)', () => {
    expect(testVerdict('passed', undefined, false)).toBe('pass');
    expect(testVerdict('passed', undefined, true)).toBe('pass');
  });
  it('skip: skipped or never run', () => {
    expect(testVerdict('skipped', undefined, false)).toBe('skip');
    expect(testVerdict('pending', undefined, false)).toBe('skip');
  });
  it('fail: a conformance check failed, or anything else threw', () => {
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, false)).toBe('fail');
    expect(testVerdict('failed', 'TypeError', false)).toBe('fail');
    expect(testVerdict('failed', undefined, false)).toBe('fail');
  });
  it('error: the target gave no answer, or the control API failed', () => {
    expect(testVerdict('failed', TARGET_ERROR_NAME, false)).toBe('error');
    expect(testVerdict('failed', CONTROL_ERROR_NAME, false)).toBe('error');
  });
  it('error: the test ran out of time, by our budget or vitest\'s own timeout', () => {
    expect(testVerdict('failed', OUT_OF_TIME_ERROR_NAME, false)).toBe('error');
    expect(testVerdict('failed', 'Error', false, false, 'Test timed out in 20000ms.\nIf this is a long-running test, pass a timeout value')).toBe('error');
    expect(testVerdict('failed', 'Error', false, false, 'expected 200, got 500 (Test timed out in 20000ms)')).toBe('fail');
  });
  it('a failed check on an answer that did arrive: error when the test also met target trouble, fail when it did not', () => {
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, true)).toBe('error');
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, false)).toBe('fail');
  });
  it('the error names are the classes\' own', () => {
    expect(new TargetError('x', { method: 'GET', path: '/', headers: {} }).name).toBe(TARGET_ERROR_NAME);
    expect(new ControlError('x').name).toBe(CONTROL_ERROR_NAME);
    expect(new OutOfTimeError('x').name).toBe(OUT_OF_TIME_ERROR_NAME);
  });
});

describe('a test whose set-up failed', () => {
  const moduleWith = (errors: { name: string; message: string }[]): SetUpParent => ({ type: 'module', errors: () => errors });
  const block = (parent: SetUpParent, errors: { name: string; message: string }[] = []): SetUpParent => ({ type: 'suite', errors: () => errors, parent });
  const test = (parent: SetUpParent, mode = 'run', state = 'skipped') => ({ result: () => ({ state }), options: { mode }, parent });
  const refused = { name: CONTROL_ERROR_NAME, message: 'control POST /tenants: no answer (connect ECONNREFUSED 127.0.0.1:9)\n    at stack' };

  it('is an error naming the set-up failure of its module, through its describe blocks', () => {
    const why = setUpFailure(test(block(block(moduleWith([refused])))), undefined);
    expect(why).toBe(`set-up failed before the test ran: ${CONTROL_ERROR_NAME}: control POST /tenants: no answer (connect ECONNREFUSED 127.0.0.1:9)`);
    expect(testVerdict('skipped', undefined, false, why !== undefined)).toBe('error');
  });
  it('names the nearest failing block first', () => {
    const why = setUpFailure(test(block(moduleWith([refused]), [{ name: 'TargetError', message: 'GET /assistants: no answer' }])), undefined);
    expect(why).toMatch(/TargetError: GET \/assistants/);
  });
  it('stays a skip when it was meant to be skipped, said why, or nothing failed', () => {
    expect(setUpFailure(test(moduleWith([refused]), 'skip'), undefined)).toBeUndefined();
    expect(setUpFailure(test(moduleWith([refused])), 'opt-in not given: CORE_API_ALLOW_SMS=1')).toBeUndefined();
    expect(setUpFailure(test(block(moduleWith([]))), undefined)).toBeUndefined();
    expect(setUpFailure(test(moduleWith([refused]), 'run', 'passed'), undefined)).toBeUndefined();
    expect(testVerdict('skipped', undefined, false, false)).toBe('skip');
  });
});
