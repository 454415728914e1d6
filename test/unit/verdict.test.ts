/** helpers/report/verdict.ts: one case per verdict, and the cases that decide between fail and error. */
import { describe, expect, it } from 'vitest';
import { testVerdict } from '../../helpers/report/verdict';
import { CONTROL_ERROR_NAME, TARGET_ERROR_NAME } from '../../helpers/error-names';
import { CONFORMANCE_FAILURE_NAME } from '../../helpers/clause';
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
  it('error: recorded target trouble wins over the check that failed after it', () => {
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, true)).toBe('error');
  });
  it('the error names are the classes\' own', () => {
    expect(new TargetError('x', { method: 'GET', path: '/', headers: {} }).name).toBe(TARGET_ERROR_NAME);
    expect(new ControlError('x').name).toBe(CONTROL_ERROR_NAME);
  });
});
