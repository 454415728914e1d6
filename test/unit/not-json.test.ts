/**
 * A complete 2xx body that is not JSON is the API's defect: it fails the envelope clause (§2.1)
 * once, and the test's other checks are not evaluated on `undefined`: their clauses are `error`
 * with "the answer was not JSON", never `fail`.
 */
import { describe, expect, it } from 'vitest';
import { ConformanceFailure, verifier } from '../../helpers/checks/engine';
import { notJson, NOT_JSON, type ApiResponse } from '../../helpers/base/exchange';
import { auditEnvelope, notJsonRule } from '../../helpers/audits/envelope';
import { TestRecorder } from '../../helpers/record/test-recorder';
import { clauseVerdicts, type TestRecord } from '../../helpers/report/model';
import type { Clause } from '../../helpers/spec/catalogue';
import type { CheckRecord } from '../../helpers/base/meta';

const answer = (status: number, text: string): ApiResponse => {
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status,
    headers: { 'content-type': 'application/json' },
    text,
    json,
    durationMs: 1,
    retries: 0,
    request: { method: 'GET', path: '/assistants/a', headers: {} },
  };
};

describe('notJson', () => {
  it('a complete 2xx body that does not parse; not an empty body, a 204 or an error status', () => {
    expect(notJson(answer(200, '{"success":true,"data":{"transferMode":"cold-tr'))).toBe(true);
    expect(notJson(answer(200, '<html>ok</html>'))).toBe(true);
    expect(notJson(answer(200, ''))).toBe(false);
    expect(notJson(answer(204, 'x'))).toBe(false);
    expect(notJson(answer(400, 'nope'))).toBe(false);
    expect(notJson(answer(200, '{"success":true}'))).toBe(false);
  });
});

describe('checks on an answer that was not JSON', () => {
  it('fail the envelope clause once and are recorded as not evaluated', () => {
    const record = new TestRecorder({});
    const verify = verifier('2.2/transfer-mode', { record, unevaluated: notJsonRule, declared: ['2.2/transfer-mode', '2.2/other'] });
    const res = answer(200, '{"success":true,"data":{"transferMode":"cold-tr');
    record.markNotJson();
    auditEnvelope(res, record);
    expect(() =>
      verify.that('transferMode is cold-transfer', res.json?.data?.transferMode === 'cold-transfer', {
        expected: 'cold-transfer',
        actual: undefined,
        res,
      }),
    ).toThrow(ConformanceFailure);
    // A check that names no answer, after the test met one that was not JSON, is not evaluated either.
    expect(() => verify.on('2.2/other').that('another field', false, { expected: 1, actual: undefined })).toThrow(/not evaluated: the answer was not JSON/);
    auditEnvelope(res, record);
    const checks: readonly CheckRecord[] = record.checks;
    expect(checks.filter((c) => !c.ok && c.clauses.includes('2.1/json-envelope') && !c.unevaluated)).toHaveLength(1);
    expect(checks.filter((c) => c.unevaluated === NOT_JSON).map((c) => c.clauses[0])).toEqual(['2.2/transfer-mode', '2.2/other']);
  });

  it('the rule fails the envelope clause itself when the audit did not see the answer', () => {
    const verify = verifier('2.2/transfer-mode', { unevaluated: notJsonRule });
    const res = answer(200, '<html>ok</html>');
    expect(() => verify.equal('transferMode', res.json?.data?.transferMode, 'cold-transfer', res)).toThrow(/not evaluated: the answer was not JSON/);
    expect(() => verify.soft.equal('again', undefined, 1, res)).not.toThrow();
    expect(verify.record.checks.map((c) => [c.clauses[0], c.ok, c.unevaluated])).toEqual([
      ['2.1/json-envelope', false, undefined],
      ['2.2/transfer-mode', false, NOT_JSON],
      ['2.2/transfer-mode', false, NOT_JSON],
    ]);
  });

  it('a check without such an answer still fails as before', () => {
    const verify = verifier('2.2/transfer-mode', { unevaluated: notJsonRule });
    expect(() => verify.that('x', false, { expected: 1, actual: 2, res: answer(200, '{"success":true}') })).toThrow(/expected: 1/);
    expect(verify.record.checks[0].unevaluated).toBeUndefined();
  });

  it('clause verdicts: the envelope clause fails, the unevaluated clauses are error, a passed one stays pass', () => {
    const clause = (id: string): Clause => ({ id, section: id.split('/')[0], text: id, level: 'must', targets: ['simulator', 'live'] });
    const catalogue = new Map(['2.1/json-envelope', '2.2/transfer-mode', '2.2/other', '7/error-envelope'].map((id) => [id, clause(id)]));
    const test: TestRecord = {
      name: 't [2.2/transfer-mode]',
      file: 'suites/x.test.ts',
      clauses: ['2.2/transfer-mode'],
      status: 'fail',
      durationMs: 1,
      requests: 2,
      retries: 0,
      drift: [],
      checks: [
        { clauses: ['7/error-envelope'], requirement: 'answer uses the envelope', ok: true },
        { clauses: ['2.1/json-envelope'], requirement: 'JSON', ok: false, detail: 'expected a JSON body' },
        { clauses: ['2.2/transfer-mode'], requirement: 'x', ok: false, detail: 'not evaluated', unevaluated: NOT_JSON },
      ],
    };
    const v = Object.fromEntries(clauseVerdicts(catalogue, [test]).map((c) => [c.id, c.verdict]));
    expect(v['2.1/json-envelope']).toBe('fail');
    expect(v['2.2/transfer-mode']).toBe('error');
    expect(v['7/error-envelope']).toBe('pass');
  });
});
