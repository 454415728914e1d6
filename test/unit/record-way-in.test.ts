/**
 * One way into the record (issue #40 item 3): the check engine, the invariant audits and the
 * envelope audit all record through `TestRecorder.judge`, which keeps expected and actual apart
 * and redacts them and the failure text alike. A key planted in an audit's finding never reaches
 * the record.
 */
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../helpers/base/redact';
import { judged } from '../../helpers/audits/audit';
import { runAsTest } from '../../helpers/record/current-test';
import { TestRecorder } from '../../helpers/record/test-recorder';
import type { TestMeta } from '../../helpers/base/meta';

const KEY = 'ck_live_planted_0123456789abcdef0123456789';

describe('the record has one way in', () => {
  it("an audit's finding is redacted like the engine's: the planted key is in no field of the record", async () => {
    registerSecret(KEY, 'planted tenant key');
    const t = { meta: {} as TestMeta } as never as { meta: TestMeta };
    await runAsTest(t as never, async () => {
      judged({ name: 'planted', clauses: ['5.4/rotated-key-invalid'], invariant: 'x' }, '5.4/rotated-key-invalid', false, 'a revoked key is refused', {
        expected: 'a refusal (401 or 403)',
        actual: `GET /assistants with ApiKey ${KEY}: 200`,
      });
    });
    const [check] = t.meta.checks!;
    expect(check).toMatchObject({ ok: false, expected: 'a refusal (401 or 403)' });
    expect(JSON.stringify(t.meta)).not.toContain(KEY);
    expect(check.actual).toMatch(/^GET \/assistants with ApiKey \[REDACTED.*\]: 200$/);
    expect(check.detail).toMatch(/^\[5\.4\/rotated-key-invalid\] a revoked key is refused\n {2}expected: a refusal \(401 or 403\)\n {2}actual: {3}GET/);
  });

  it('a pass is recorded bare, once per clause when asked; a failure answers its text', () => {
    const r = new TestRecorder({});
    expect(r.judge({ clauses: ['a/b'], requirement: 'holds', ok: true, passOnce: true })).toBeUndefined();
    r.judge({ clauses: ['a/b'], requirement: 'holds', ok: true, passOnce: true });
    expect(r.checks).toEqual([{ clauses: ['a/b'], requirement: 'holds', ok: true }]);
    const text = r.judge({ clauses: ['a/b'], requirement: 'holds', ok: false, expected: { n: 1 }, actual: undefined, evidence: () => '\n  curl …' });
    expect(text).toBe('[a/b] holds\n  expected: {"n":1}\n  curl …');
    expect(r.judge({ clauses: ['a/b'], requirement: 'holds', ok: false, unevaluated: 'the answer was not JSON', expected: 1, actual: 2 })).toBe(
      '[a/b] holds\n  not evaluated: the answer was not JSON',
    );
  });
});
