/** helpers/report/verdict.ts: one case per verdict, and the cases that decide between fail and error. */
import { describe, expect, it } from 'vitest';
import { setUpFailure, setUpSkip, testVerdict, troubleTiming, type SetUpParent } from '../../helpers/report/verdict';
import { recordTargetTrouble } from '../../helpers/record/recorder';
import { currentRecord, runAsTest } from '../../helpers/record/current-test';
import type { Judgment } from '../../helpers/record/test-recorder';
import { CONTROL_ERROR_NAME, CREDENTIAL_REFUSED_NAME, OUT_OF_TIME_ERROR_NAME, TARGET_ERROR_NAME } from '../../helpers/base/error-names';
import { OutOfTimeError } from '../../helpers/checks/clause';
import { CONFORMANCE_FAILURE_NAME } from '../../helpers/checks/engine';
import { TargetError } from '../../helpers/http/client';
import { ControlError } from '../../helpers/target/control';

describe('testVerdict', () => {
  it('pass: the test passed (recorded target trouble it recovered from does not matter)', () => {
    expect(testVerdict('passed', undefined, 'none')).toBe('pass');
    expect(testVerdict('passed', undefined, 'first')).toBe('pass');
  });
  it('skip: skipped or never run', () => {
    expect(testVerdict('skipped', undefined, 'none')).toBe('skip');
    expect(testVerdict('pending', undefined, 'none')).toBe('skip');
  });
  it('fail: a conformance check failed, or anything else threw', () => {
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, 'none')).toBe('fail');
    expect(testVerdict('failed', 'TypeError', 'none')).toBe('fail');
    expect(testVerdict('failed', undefined, 'none')).toBe('fail');
  });
  it('error: the target gave no answer, or the control API failed', () => {
    expect(testVerdict('failed', TARGET_ERROR_NAME, 'none')).toBe('error');
    expect(testVerdict('failed', CONTROL_ERROR_NAME, 'none')).toBe('error');
  });
  it("error: the test ran out of time, by our budget or vitest's own timeout", () => {
    expect(testVerdict('failed', OUT_OF_TIME_ERROR_NAME, 'none')).toBe('error');
    expect(testVerdict('failed', 'Error', 'none', false, 'Test timed out in 20000ms.\nIf this is a long-running test, pass a timeout value')).toBe('error');
    expect(testVerdict('failed', 'Error', 'none', false, 'expected 200, got 500 (Test timed out in 20000ms)')).toBe('fail');
  });
  it('a failed check and target trouble in one test: fail when the check failed first, error when the trouble came first', () => {
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, 'none')).toBe('fail');
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, 'after-a-failed-check')).toBe('fail');
    expect(testVerdict('failed', TARGET_ERROR_NAME, 'after-a-failed-check')).toBe('fail');
    expect(testVerdict('failed', OUT_OF_TIME_ERROR_NAME, 'after-a-failed-check')).toBe('fail');
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, 'first')).toBe('error');
    expect(testVerdict('failed', TARGET_ERROR_NAME, 'first')).toBe('error');
  });
  it("the error names are the classes' own", () => {
    expect(new TargetError('x', { method: 'GET', path: '/', headers: {} }).name).toBe(TARGET_ERROR_NAME);
    expect(new ControlError('x').name).toBe(CONTROL_ERROR_NAME);
    expect(new OutOfTimeError('x').name).toBe(OUT_OF_TIME_ERROR_NAME);
  });
});

describe('the order of a failed check and target trouble, as the recorder keeps it', () => {
  const failed: Judgment = { clauses: ['5.6/bearer-rejected'], requirement: 'Bearer is refused with 401', ok: false, expected: '401', actual: '200' };
  /** Records a judgment on the running test, through the record's one way in. */
  const recordCheck = (j: Judgment) => currentRecord()?.judge(j);
  const timing = (steps: (() => void)[]) => {
    const task = { meta: {} } as any;
    runAsTest(task, () => steps.forEach((step) => step()));
    return troubleTiming(task.meta);
  };
  const trouble = () => recordTargetTrouble('GET /assistants: 502 text/html from the gateway');

  it('a check that failed on an answer before the trouble: the trouble cannot have shaped it, so the test is a fail', () => {
    const t = timing([() => recordCheck(failed), trouble]);
    expect(t).toBe('after-a-failed-check');
    expect(testVerdict('failed', TARGET_ERROR_NAME, t)).toBe('fail');
  });
  it('a check that failed only after the trouble may be its consequence (a lost write applied after all): error', () => {
    const t = timing([trouble, () => recordCheck(failed), trouble]);
    expect(t).toBe('first');
    expect(testVerdict('failed', CONFORMANCE_FAILURE_NAME, t)).toBe('error');
  });
  it('before the trouble, only a check that judged an answer counts: passed, informational and unevaluated ones do not', () => {
    const notFailures = [
      { ...failed, ok: true },
      { ...failed, level: 'informational' as const },
      { ...failed, unevaluated: 'the answer was not JSON' },
    ];
    expect(timing([...notFailures.map((c) => () => recordCheck(c)), trouble])).toBe('first');
    expect(timing([() => recordCheck(failed)])).toBe('none');
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
    expect(testVerdict('skipped', undefined, 'none', why !== undefined)).toBe('error');
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
    expect(testVerdict('skipped', undefined, 'none', false)).toBe('skip');
  });
  it('is a skip naming the variable and the answer when the set-up needed a credential form the live tenant refused', () => {
    const credential = {
      name: CREDENTIAL_REFUSED_NAME,
      message: 'credential refused before the first test: CORE_API_OTHER_TENANT_KEY answered 401 UNAUTHORIZED to GET /assistants (likely: …)',
    };
    const t = test(block(moduleWith([credential])));
    expect(setUpFailure(t, undefined)).toBeUndefined();
    expect(setUpSkip(t, undefined)).toBe(credential.message);
    expect(setUpSkip(test(moduleWith([refused])), undefined)).toBeUndefined();
    expect(setUpSkip(test(moduleWith([credential]), 'skip'), undefined)).toBeUndefined();
  });
});
