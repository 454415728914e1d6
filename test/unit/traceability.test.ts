/**
 * Traceability that cannot leak (issue 33): every clause a test records is one it declares, so its
 * name, `-t <clause>` and the catalogue's coverage agree with what it proves. `verify.on(id)`
 * refuses an id the test does not declare; a shared verifier carries the ids it records on, and a
 * test that lists it declares them (helpers/checks/clause.ts `declaredClauses`); the audits' clauses
 * are the one exception (helpers/checks/clause.ts `AUDITED_CLAUSES`); a test that ends with any
 * other undeclared clause recorded is an error (`undeclaredChecks`, run by `clauseTest`).
 */
import { describe, expect, it } from 'vitest';
import { sharedVerifier, UndeclaredClauseError, verifier, type Verify } from '../../helpers/checks/engine';
import { AUDITED_CLAUSES, declaredClauses, undeclaredChecks } from '../../helpers/checks/clause';
import { AUDIT_CLAUSES } from '../../helpers/audits/envelope';
import { INVARIANT_AUDIT_CLAUSES } from '../../helpers/audits';

const refused = sharedVerifier('4.1/validation-error-details', (verify: Verify, ok: boolean) =>
  verify.on([...verify.clauses, ...refused.clauses]).that('error.details names the field', ok, { expected: 'the field', actual: ok ? 'the field' : 'nothing' }),
);

describe('verify.on refuses a clause the test does not declare', () => {
  it('throws a programming error naming the id and the declaration, and records nothing', () => {
    const verify = verifier('2.2/request-types');
    expect(() => verify.on('4.1/validation-error-details')).toThrow(UndeclaredClauseError);
    expect(() => verify.on(['2.2/request-types', '7/no-server-error-on-input'])).toThrow(
      /verify\.on\(7\/no-server-error-on-input\): the test declares \[2\.2\/request-types\], not 7\/no-server-error-on-input/,
    );
    expect(verify.record.checks).toEqual([]);
  });

  it('accepts any declared id, also from a verifier it made with on()', () => {
    const verify = verifier('6/b-retry-on-failure', { declared: ['6/b-retry-on-failure', '6/b-same-delivery-id'] });
    expect(() => verify.on('6/b-same-delivery-id').on('6/b-retry-on-failure').that('holds', true, { expected: 1, actual: 1 })).not.toThrow();
    expect(() => verify.on('6/b-same-delivery-id').on('6/b-dedupe')).toThrow(UndeclaredClauseError);
    expect(verify.record.checks.map((c) => c.clauses)).toEqual([['6/b-retry-on-failure']]);
  });

  it('a shared verifier records on its own clauses once the test declares them', () => {
    const { own, declared } = declaredClauses(['2.2/request-types', refused]);
    expect(own).toEqual(['2.2/request-types']);
    expect(declared).toEqual(['2.2/request-types', '4.1/validation-error-details']);
    const verify = verifier(own, { declared });
    refused(verify, true);
    expect(verify.record.checks[0].clauses).toEqual(['2.2/request-types', '4.1/validation-error-details']);
    // Without the declaration, the same call is refused before it records anything.
    expect(() => refused(verifier('2.2/request-types'), true)).toThrow(UndeclaredClauseError);
  });
});

describe('declaredClauses: what a test proves is derived from its list, mechanically', () => {
  it('own ids first, then each shared verifier id not already there', () => {
    const both = sharedVerifier(['4.1/validation-error-details', '4.1/rejected-patch-changes-nothing'], () => undefined);
    expect(declaredClauses(['2.2/x', '4.1/validation-error-details', both])).toEqual({
      own: ['2.2/x', '4.1/validation-error-details'],
      declared: ['2.2/x', '4.1/validation-error-details', '4.1/rejected-patch-changes-nothing'],
    });
    expect(declaredClauses('2.2/x')).toEqual({ own: ['2.2/x'], declared: ['2.2/x'] });
  });

  it('a test names at least one clause of its own; a shared verifier carries at least one', () => {
    expect(() => declaredClauses([refused])).toThrow(/at least one clause id of its own/);
    expect(() => sharedVerifier([], () => undefined)).toThrow(/at least one clause/);
  });
});

describe('undeclaredChecks: the end-of-test guard', () => {
  const check = (clauses: string[]) => ({ clauses, requirement: 'r', ok: true });

  it('finds a check on an undeclared clause', () => {
    const leaked = undeclaredChecks(['5.7/foreign-indistinguishable'], [check(['5.7/foreign-indistinguishable']), check(['7/resource-not-found'])]);
    expect(leaked.map((c) => c.clauses)).toEqual([['7/resource-not-found']]);
  });

  it('leaves the audits alone: their clauses (envelope and invariant audits) are the one stated exception', () => {
    expect(AUDITED_CLAUSES).toEqual([...new Set([...AUDIT_CLAUSES, ...INVARIANT_AUDIT_CLAUSES])]);
    expect(AUDIT_CLAUSES).toContain('7/error-envelope');
    expect(
      undeclaredChecks(
        ['4.5/assistants-list'],
        AUDITED_CLAUSES.map((id) => check([id])),
      ),
    ).toEqual([]);
  });
});
