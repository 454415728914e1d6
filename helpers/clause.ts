/**
 * Clause-tagged tests and checks. A test names the spec clauses it proves; each check inside it
 * names the clause(s) it proves too (OpenID-conformance style), states the requirement in plain
 * words, and on failure says expected against actual, h2spec style:
 *
 *   [5.6/bearer-rejected] `Authorization: Bearer <key>` is rejected with 401 UNAUTHORIZED
 *     expected: 401 UNAUTHORIZED
 *     actual:   200 (success envelope)
 *     request:  GET /assistants  authorization: Bearer [REDACTED]
 *
 * Every clause test receives `verify`, a check context that carries the test's clause ids, so a
 * check states only its requirement, and the typed checks derive expected and actual:
 *
 *   clauseTest('5.1/bearer-401', '`Bearer` is rejected with 401', async ({ verify }) => {
 *     const res = await world().as('tenantA').withVariant('bearer').get('/assistants');
 *     verify.error(res, 401, 'UNAUTHORIZED');            // "GET /assistants answers 401 UNAUTHORIZED"
 *     verify.soft.schema('the error envelope', 'envelope.error', res.json, res);
 *     verify.on('7/error-envelope').equal('success is false', res.json.success, false, res);
 *   });
 *
 * `verify.soft` records a failing check and lets the test go on (OIDF's callAndContinueOnFailure);
 * the test still fails at its end, with every failed check listed.
 *
 * `verify` is the one way to write a check. A helper that checks on a test's behalf takes the
 * test's `Verify` (or its `Checks`, e.g. `verify.soft`), as helpers/webhooks/checks.ts does;
 * `verifier(ids)` builds one outside a clause test (unit tests). The functions that take clause
 * ids as an argument are this module's own, behind `verifier`, so no caller restates ids per check.
 */
import { test, type RunnerTestCase as Test, type TestContext } from 'vitest';
import { currentScope, runAsTest, type TestScope } from './current-test';
import { Budget, testBudgetMs, testWallMs, vitestTimeoutMs } from './deadline';
import { OUT_OF_TIME_ERROR_NAME } from './error-names';
import { isDeepStrictEqual } from 'node:util';
import { capabilityReason, capabilitySwitch, hasCapability, switchesOfReason, type Capability, type Switch } from './target';
import { redact } from './redact';
import { EVENT_UNSUPPORTED_NAME } from './error-names';
import { describeExchange, NOT_JSON, notJson, routeNotServed, statusLine, type ApiResponse } from './exchange';
import { receivedNotJson, recordCheck, recordDrift, recordedChecks, recordSkipReason, recordTargetTrouble } from './recorder';
import { findDrift, formatIssues, validate } from './validator';
import type { Shape } from './documented';
import { attachFailureEvidence, clauseLabels } from './report/allure';

/**
 * Thrown by a failing check; its message reads like the spec. Its name, `ConformanceAssertionError`,
 * marks it as an assertion for report tools (Allure counts it "failed", not "broken").
 */
export class ConformanceFailure extends Error {
  constructor(
    message: string,
    readonly clauses: string[],
  ) {
    super(message);
    this.name = CONFORMANCE_FAILURE_NAME;
  }
}

/** The envelope clause a 2xx body that is not JSON fails (§2.1). */
const JSON_ENVELOPE = '2.1/json-envelope';

/** `name` of every {@link ConformanceFailure}, as it reaches reporters after serialisation. */
export const CONFORMANCE_FAILURE_NAME = 'ConformanceAssertionError';

function asList(ids: string | string[]): string[] {
  return Array.isArray(ids) ? ids : [ids];
}

/** What a clause test's body receives: vitest's test context and the test's {@link Verify}. */
export type ClauseContext = TestContext & { verify: Verify };

/** Options of a clause test. */
export interface ClauseTestOptions {
  /** Capabilities the test needs; missing ones skip it with the reason. */
  requires?: Capability[];
  /**
   * The test's budget in ms (charged time: queued time excluded); default three request deadlines
   * (helpers/deadline.ts). Its wall cap and vitest's timeout are derived from it.
   */
  timeout?: number;
}

/**
 * Ends a test that ran out of time (an `error` verdict, never a `fail`): the target was slow, hung
 * or kept the test queued. The message names the request the test was waiting on and for how long.
 */
export class OutOfTimeError extends Error {
  constructor(message: string) {
    super(redact(message));
    this.name = OUT_OF_TIME_ERROR_NAME;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** "waiting on GET /assistants/… for 10.2 s" (the oldest request in flight), else what it is queued for, else "between requests". */
export function waitingWords(scope: Pick<TestScope, 'inflight' | 'queued'>, now = Date.now()): string {
  const oldest = (m: TestScope['inflight']) => [...m.values()].sort((a, b) => a.since - b.since)[0];
  const req = oldest(scope.inflight);
  if (req) return `waiting on ${req.what} for ${seconds(now - req.since)}${scope.inflight.size > 1 ? ` (and ${scope.inflight.size - 1} more requests)` : ''}`;
  const q = oldest(scope.queued);
  if (q) return `queued for ${q.what} for ${seconds(now - q.since)}`;
  return 'between requests (no request in flight)';
}

/**
 * Declares a conformance test that proves `clauses`. The name is the requirement followed by the
 * ids in brackets, so `-t 5.6/rotated-key` selects it. The body receives `verify`, naming `clauses`
 * on every check; a soft check that failed fails the test when the body ends.
 */
export function clauseTest(
  clauses: string | string[],
  requirement: string,
  fn: (ctx: ClauseContext) => Promise<void> | void,
  opts: ClauseTestOptions = {},
): void {
  const ids = asList(clauses);
  const limits = { budgetMs: testBudgetMs(opts.timeout), wallMs: testWallMs(opts.timeout) };
  test(`${requirement} [${ids.join(' ')}]`, { meta: { clauses: ids }, timeout: vitestTimeoutMs(opts.timeout) }, (ctx) =>
    runJudged(
      ctx.task,
      limits,
      async () => {
        await clauseLabels(ids);
        const lacking = (opts.requires ?? []).filter((cap) => !hasCapability(cap));
        if (lacking.length) skipWith(ctx, capabilityReason(lacking[0]!), lacking.map(capabilitySwitch));
        await fn(Object.assign(ctx, { verify: verifier(ids) }));
        // Soft failures recorded along the way (the envelope audit) fail the test now.
        const soft = recordedChecks().filter((c) => !c.ok && c.level !== 'informational');
        if (soft.length)
          throw new ConformanceFailure(
            soft.map((c) => c.detail ?? c.requirement).join('\n\n'),
            soft.flatMap((c) => c.clauses),
          );
      },
      async (e) => {
        // The event trigger cannot cause what the test needs: a skip with the trigger's reason, not a failure.
        if ((e as Error)?.name === EVENT_UNSUPPORTED_NAME) skipWith(ctx, (e as Error).message);
        await attachFailureEvidence();
      },
    ),
  );
}

/**
 * Runs a test body as `task` under its limits (helpers/deadline.ts): its budget (charged time,
 * paused while it is queued) and its wall cap. When either runs out, the test is cut off: an
 * {@link OutOfTimeError} naming the request it was waiting on and for how long, recorded as target
 * trouble (an `error` verdict). Once the test is judged (passed, failed or cut off) its abort
 * signal fires: its requests in flight are cancelled and it sends no more, so it cannot change a
 * shared fixture afterwards. `onFailure` runs in the test's scope before the failure is rethrown.
 * @throws what the body throws, or OutOfTimeError
 */
export function runJudged<T>(
  task: Test,
  limits: { budgetMs: number; wallMs: number },
  body: () => Promise<T>,
  onFailure?: (e: unknown) => Promise<void>,
): Promise<T> {
  const judged = new AbortController();
  return runAsTest(
    task,
    async () => {
      const scope = currentScope()!;
      let cutOff!: (e: OutOfTimeError) => void;
      const outOfTime = new Promise<never>((_, reject) => (cutOff = reject));
      const stop = (why: string) => {
        const e = new OutOfTimeError(
          `ran out of time (${why}); ${waitingWords(scope)}. The target was slow, hung or kept the test queued: no verdict on the clauses`,
        );
        recordTargetTrouble(e.message);
        judged.abort(e);
        cutOff(e);
      };
      const budget = new Budget(limits.budgetMs, () => stop(`${seconds(limits.budgetMs)} of its budget charged, time queued for shared fixtures not counted`));
      scope.budget = budget;
      const wall = setTimeout(() => stop(`${seconds(limits.wallMs)} on the wall clock, queued time included`), limits.wallMs);
      try {
        const run = Promise.resolve().then(body);
        // A body cut off goes on in the background until its cancelled requests throw; that is not this test's outcome.
        run.catch(() => undefined);
        return await Promise.race([run, outOfTime]);
      } catch (e) {
        await onFailure?.(e);
        throw e;
      } finally {
        budget.stop();
        clearTimeout(wall);
        judged.abort(new Error('the test was judged'));
      }
    },
    { signal: judged.signal },
  );
}

/**
 * Skips the running test with a reason the report shows. `needs` names the switches that would
 * lift the skip (helpers/target.ts `Switch`); when omitted, those `reason` was tagged with by
 * `switchReason` (every capability and missing-fixture reason is). Never returns.
 */
export function skipWith(ctx: TestContext, reason: string, needs?: Switch | Switch[]): never {
  recordSkipReason(reason, needs === undefined ? switchesOfReason(reason) : Array.isArray(needs) ? needs : [needs]);
  ctx.skip(reason);
  throw new Error('unreachable');
}

/**
 * Skips the running test, as a failed precondition, when `res` says the route is not served
 * (helpers/exchange.ts `routeNotServed`): for routes whose method the spec does not show, or a
 * fixture route a target may not have. `what` names the request (`GET /turn-flags`); `note` is
 * appended to the reason. Never returns when it skips.
 */
export function skipUnlessServed(ctx: TestContext, res: ApiResponse, what: string, note?: string): void {
  if (routeNotServed(res)) skipWith(ctx, `precondition failed: ${what} is not served (${statusLine(res)})${note ? `; ${note}` : ''}`);
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 600 ? `${s.slice(0, 600)}…` : s;
  } catch {
    return String(v);
  }
}

/**
 * The core check behind every {@link Checks} method: `ok` must hold. Records the outcome on the
 * clause(s) and throws {@link ConformanceFailure} with expected against actual when it does not.
 */
function check(ids: string[], requirement: string, ok: boolean, detail: { expected: unknown; actual: unknown; res?: ApiResponse }): void {
  if (ok) {
    recordCheck({ clauses: ids, requirement, ok: true });
    return;
  }
  // A 2xx body that is not JSON fails §2.1 once; what else fails in the test was judged on nothing.
  if ((detail.res && notJson(detail.res)) || receivedNotJson()) {
    if (detail.res && notJson(detail.res) && !recordedChecks().some((c) => !c.ok && c.clauses.includes(JSON_ENVELOPE))) {
      recordCheck({
        clauses: [JSON_ENVELOPE],
        requirement: 'every answer of a JSON endpoint is a JSON envelope',
        ok: false,
        detail: redact(`[${JSON_ENVELOPE}] expected a JSON body, got ${JSON.stringify(detail.res.text.slice(0, 200))}`) + describeExchange(detail.res),
      });
    }
    const text = redact(`[${ids.join(' ')}] ${requirement}\n  not evaluated: ${NOT_JSON} (${JSON_ENVELOPE} fails)`) + describeExchange(detail.res);
    recordCheck({ clauses: ids, requirement, ok: false, detail: text, unevaluated: NOT_JSON });
    throw new ConformanceFailure(text, ids);
  }
  const text =
    redact(
      `[${ids.join(' ')}] ${requirement}\n  expected: ${typeof detail.expected === 'string' ? detail.expected : show(detail.expected)}\n  actual:   ${typeof detail.actual === 'string' ? detail.actual : show(detail.actual)}`,
    ) + describeExchange(detail.res);
  recordCheck({ clauses: ids, requirement, ok: false, detail: text });
  throw new ConformanceFailure(text, ids);
}

/** Checks deep equality of actual and expected. */
function checkEqual(ids: string[], requirement: string, actual: unknown, expected: unknown, res?: ApiResponse): void {
  check(ids, requirement, isDeepStrictEqual(actual, expected), { expected, actual, res });
}

/**
 * Records a non-strict outcome (Autobahn's "non-strict"): the target refused as the spec wants,
 * but not in the stated form (a 400 from its HTTP layer instead of 401 UNAUTHORIZED). Never fails
 * the test; conformance.md lists it under "Non-strict refusals".
 */
function nonStrict(ids: string[], requirement: string, detail: string): void {
  recordCheck({ clauses: ids, requirement, ok: true, level: 'non-strict', detail: redact(detail) });
}

/** An informational finding: recorded and reported, never fails the test (drift, timing). */
function inform(ids: string[], requirement: string, ok: boolean, detail: string): void {
  recordCheck({ clauses: ids, requirement, ok, level: 'informational', detail: redact(detail) });
}

/**
 * Checks an error answer: status and `error.code` (§7), branching on the code, never the message.
 */
function checkError(ids: string[], requirement: string, res: ApiResponse, status: number, code?: string): void {
  const actualCode = res.json?.error?.code;
  const ok = res.status === status && (code === undefined || actualCode === code);
  check(ids, requirement, ok, { expected: code ? `${status} ${code}` : `${status}`, actual: statusLine(res), res });
}

/** Checks a 2xx answer (optionally an exact status). */
function checkSuccess(ids: string[], requirement: string, res: ApiResponse, status?: number): void {
  const ok = status === undefined ? res.status >= 200 && res.status < 300 : res.status === status;
  check(ids, requirement, ok, { expected: status ? `${status}` : '2xx', actual: statusLine(res), res });
}

/**
 * Checks a value against a named schema (helpers/validator.ts), explaining each violation with its
 * JSON path and offending value; undocumented fields are recorded as drift, not failed.
 */
function checkSchema(ids: string[], requirement: string, schema: string, value: unknown, res?: ApiResponse): void {
  const result = validate(schema, value);
  check(ids, requirement, result.ok, {
    expected: `valid against schemas/${schema.split('#')[0]}.json`,
    actual: result.ok ? 'valid' : `\n${formatIssues(result.issues).replace(/^/gm, '    ')}`,
    res,
  });
  if (result.ok) {
    recordDrift(...findDrift(schema, value));
  }
}

// ---------------------------------------------------------------------------------------------
// The per-test check context

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
  /**
   * "Nothing changed": `shape`'s part of `after` deep-equals its part of `before` (a refused write
   * changed nothing, every other field kept, a replay converged). What is compared is the named
   * {@link Shape} (helpers/documented.ts: `documented('assistant')`, `documented('assistant',
   * WRITE_STAMPS)`, `fields(names)`, `answerOf(shape)`); a failure lists each field that moved.
   */
  unchanged(requirement: string, before: unknown, after: unknown, shape: Shape, res?: ApiResponse): void;
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

/**
 * Runs checks in `fn` without stopping the test at the first failure (OIDF's
 * callAndContinueOnFailure): a {@link ConformanceFailure} it throws is swallowed, the check having
 * recorded it, and the clause test fails at its end with every failure listed.
 */
function continueOnFailure(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ConformanceFailure)) throw e;
  }
}

/** "name: before → after" for each top-level field that differs; the whole values when either is not an object. */
function movedFields(before: unknown, after: unknown): string {
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(before) || !isObject(after)) return `${show(before)} → ${show(after)}`;
  const has = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  const word = (o: Record<string, unknown>, k: string) => (has(o, k) ? show(o[k]) : '(absent)');
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => has(before, k) !== has(after, k) || !isDeepStrictEqual(before[k], after[k]))
    .map((k) => `${k}: ${word(before, k)} → ${word(after, k)}`)
    .join('; ');
}

function checksFor(ids: string[], wrap: (fn: () => void) => void): Checks {
  return {
    that: (requirement, ok, detail) => wrap(() => check(ids, requirement, ok, detail)),
    equal: (requirement, actual, expected, res) => wrap(() => checkEqual(ids, requirement, actual, expected, res)),
    error: (res, status, code, requirement) =>
      wrap(() => checkError(ids, requirement ?? `${requestWords(res)} answers ${code ? `${status} ${code}` : status}`, res, status, code)),
    success: (res, status, requirement) => wrap(() => checkSuccess(ids, requirement ?? `${requestWords(res)} answers ${status ?? '2xx'}`, res, status)),
    schema: (requirement, schema, value, res) => wrap(() => checkSchema(ids, requirement, schema, value, res)),
    unchanged: (requirement, before, after, shape, res) =>
      wrap(() => {
        const was = shape.part(before);
        const now = shape.part(after);
        check(ids, requirement, isDeepStrictEqual(was, now), { expected: `${shape.name} as before`, actual: `moved: ${movedFields(was, now)}`, res });
      }),
    nonStrict: (requirement, detail) => nonStrict(ids, requirement, detail),
    inform: (requirement, ok, detail) => inform(ids, requirement, ok, detail),
  };
}

/**
 * A verifier naming `ids` (one id or several). `clauseTest` hands one to every test as
 * `ctx.verify`; a suite uses that one (and `verify.on(ids)`), never this function. Build one
 * directly only where no clause test runs (unit tests of helpers that take a `Verify`).
 * @throws Error when `ids` is empty (a check must name a clause).
 */
export function verifier(ids: string | string[]): Verify {
  const list = Array.isArray(ids) ? [...ids] : [ids];
  if (list.length === 0) throw new Error('a verifier needs at least one clause id');
  return {
    clauses: list,
    ...checksFor(list, (fn) => fn()),
    soft: checksFor(list, continueOnFailure),
    on: (other) => verifier(other),
  };
}
