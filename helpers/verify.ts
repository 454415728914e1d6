/**
 * The per-test check context: `verify` carries the clause ids of the test it belongs to, so a
 * check states only its requirement, and the typed checks derive expected and actual from what
 * they are given (OpenID-conformance style: the requirement ids hang on each check; h2spec style:
 * a failure reads expected against actual).
 *
 *   clauseTest('5.1/bearer-401', '`Bearer` is rejected with 401', async ({ verify }) => {
 *     const res = await world().as('tenantA').get('/assistants', { auth: 'bearer' });
 *     verify.error(res, 401, 'UNAUTHORIZED');            // "GET /assistants answers 401 UNAUTHORIZED"
 *     verify.soft.schema('the error envelope', 'envelope.error', res.json, res);
 *     verify.on('7/error-envelope').equal('success is false', res.json.success, false, res);
 *   });
 *
 * `verify.soft` records a failing check and lets the test go on (OIDF's callAndContinueOnFailure);
 * the test still fails at its end, with every failed check listed (helpers/clause.ts clauseTest).
 * Every check throws {@link ConformanceFailure} on failure unless it is soft.
 */
import type { ApiResponse } from './client';
import { check, checkEqual, checkError, checkSchema, checkSuccess, ConformanceFailure, inform, nonStrict } from './clause';

/** The checks of one test; every one records its outcome on the verifier's clause ids. */
export interface Checks {
  /** The core check: `ok` must hold (expected and actual as the caller words them). */
  that(requirement: string, ok: boolean, detail: { expected: unknown; actual: unknown; res?: ApiResponse }): void;
  /** Deep equality of `actual` and `expected`; both are shown on failure. */
  equal(requirement: string, actual: unknown, expected: unknown, res?: ApiResponse): void;
  /**
   * An error answer (§7): `status` and, when given, `error.code`. The requirement defaults to
   * "<METHOD> <path> answers <status> <code>".
   */
  error(res: ApiResponse, status: number, code?: string, requirement?: string): void;
  /** A 2xx answer (or exactly `status`). The requirement defaults to "<METHOD> <path> answers 2xx". */
  success(res: ApiResponse, status?: number, requirement?: string): void;
  /** `value` validates against `schemas/<schema>.json`; undocumented fields are recorded as drift. */
  schema(requirement: string, schema: string, value: unknown, res?: ApiResponse): void;
  /** A refusal in another form than the stated one (graded non-strict, never a failure). */
  nonStrict(requirement: string, detail: string): void;
  /** An informational finding (drift, timing): reported, never a failure. */
  inform(requirement: string, ok: boolean, detail: string): void;
}

/** {@link Checks} bound to a test's clause ids, with a soft mode and a way to name other ids. */
export interface Verify extends Checks {
  /** The clause ids every check of this verifier names. */
  readonly clauses: readonly string[];
  /** The same checks, recorded without stopping the test; the test fails at its end. */
  readonly soft: Checks;
  /** A verifier naming `ids` instead (a check that proves another clause of the test, or a §7 rule). */
  on(ids: string | string[]): Verify;
}

/** "GET /assistants/{id}"-style words for a response's request. */
function requestWords(res: ApiResponse): string {
  return `${res.request.method} ${res.request.path}`;
}

/** Runs `fn`; a {@link ConformanceFailure} it throws is swallowed (the check already recorded it). */
function softly(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ConformanceFailure)) throw e;
  }
}

function checksFor(ids: string[], wrap: (fn: () => void) => void): Checks {
  return {
    that: (requirement, ok, detail) => wrap(() => check(ids, requirement, ok, detail)),
    equal: (requirement, actual, expected, res) => wrap(() => checkEqual(ids, requirement, actual, expected, res)),
    error: (res, status, code, requirement) =>
      wrap(() => checkError(ids, requirement ?? `${requestWords(res)} answers ${code ? `${status} ${code}` : status}`, res, status, code)),
    success: (res, status, requirement) => wrap(() => checkSuccess(ids, requirement ?? `${requestWords(res)} answers ${status ?? '2xx'}`, res, status)),
    schema: (requirement, schema, value, res) => wrap(() => checkSchema(ids, requirement, schema, value, res)),
    nonStrict: (requirement, detail) => nonStrict(ids, requirement, detail),
    inform: (requirement, ok, detail) => inform(ids, requirement, ok, detail),
  };
}

/**
 * A verifier naming `ids` (one id or several). `clauseTest` hands one to every test as
 * `ctx.verify`; build one directly only in helpers that check on behalf of a test.
 * @throws Error when `ids` is empty (a check must name a clause).
 */
export function verifier(ids: string | string[]): Verify {
  const list = Array.isArray(ids) ? [...ids] : [ids];
  if (list.length === 0) throw new Error('a verifier needs at least one clause id');
  return {
    clauses: list,
    ...checksFor(list, (fn) => fn()),
    soft: checksFor(list, softly),
    on: (other) => verifier(other),
  };
}

/** {@link check}, recorded without stopping the test (it fails at its end). */
export function softCheck(...args: Parameters<typeof check>): void {
  softly(() => check(...args));
}
