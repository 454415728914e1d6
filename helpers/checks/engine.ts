/**
 * The check engine. A check names the spec clause(s) it proves (OpenID-conformance style), states
 * the requirement in plain words, and on failure says expected against actual, h2spec style:
 *
 *   [5.6/bearer-rejected] `Authorization: Bearer <key>` is rejected with 401 UNAUTHORIZED
 *     expected: 401 UNAUTHORIZED
 *     actual:   200 (success envelope)
 *     request:  GET /assistants  authorization: Bearer [REDACTED]
 *
 * A {@link Verify} carries its clause ids and writes every outcome into the test record it was
 * handed (helpers/record/test-recorder.ts), nothing ambient: `clauseTest` (helpers/checks/clause.ts) builds one per
 * test and hands it to the body as `verify`. `verify.soft` records a failing check and lets the
 * test go on (OIDF's callAndContinueOnFailure); the test still fails at its end, with every failed
 * check listed.
 *
 * The engine holds no spec policy: why a failing check could not be judged (an answer that was
 * not JSON, §2.1) is the envelope audit's rule (helpers/audits/envelope.ts), handed in as
 * {@link VerifierOptions.unevaluated}. It knows no vitest either.
 */
import { describeExchange, type ApiResponse } from '../base/exchange';
import { findDrift, formatIssues, validate } from '../spec/validator';
import type { Shape } from '../spec/documented';
import type { PathSegment, Reading } from '../generate/paths';
import {
  arrivedJudgment,
  containsJudgment,
  equalJudgment,
  errorJudgment,
  everyJudgment,
  lacksJudgment,
  namesFieldJudgment,
  noneJudgment,
  readingJudgment,
  refusedJudgment,
  requestWords,
  successJudgment,
  type ContainsOptions,
  type Judgment,
} from './judgments';
import { TestRecorder } from '../record/test-recorder';
import { judgeChange } from '../live/write-journal';
import { isObject, render } from '../base/values';
import { movedKeys, sameValue, UNCHANGED_RULE } from '../spec/unchanged';

/** `name` of every {@link ConformanceFailure}, as it reaches reporters after serialisation. */
export const CONFORMANCE_FAILURE_NAME = 'ConformanceAssertionError';

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

/**
 * A rule that says why a failing check was judged on nothing: the reason (recorded on the check
 * as `unevaluated`; its clauses get an `error`, not a `fail`), or undefined when the check failed
 * on an answer it could judge. `res` is the answer the check names, if any. The rule may record a
 * check of its own on `record` (the envelope clause the answer fails).
 */
export type UnevaluatedRule = (res: ApiResponse | undefined, record: TestRecorder) => string | undefined;

/** How a verifier is built. */
export interface VerifierOptions {
  /** The record checks are written into; default a record of the verifier's own (read back as `verify.record`). */
  record?: TestRecorder;
  /** Why a failing check was judged on nothing (helpers/audits/envelope.ts `notJsonRule`); default: never. */
  unevaluated?: UnevaluatedRule;
  /**
   * Every clause id the test declares (its own and those its shared verifiers carry,
   * helpers/checks/clause.ts `clauseTest`); `on(ids)` refuses any other. Default: `ids`.
   */
  declared?: readonly string[];
}

/**
 * Thrown by `verify.on(ids)` for an id the test does not declare: a programming error of the suite
 * (the test's name, `-t` and the catalogue would not show the clause it records), not a verdict.
 */
export class UndeclaredClauseError extends Error {
  constructor(undeclared: string[], declared: readonly string[]) {
    super(
      `verify.on(${undeclared.join(', ')}): the test declares [${declared.join(' ')}], not ${undeclared.join(', ')}. ` +
        "Add it to the clause ids of the clauseTest, or, when a shared verifier records it, carry it on that verifier (sharedVerifier) and list the verifier among the test's clauses (docs/writing-suites.md).",
    );
    this.name = 'UndeclaredClauseError';
  }
}

/** What the checks of one verifier share: its clause ids, its record and its rules. */
interface Engine {
  ids: string[];
  record: TestRecorder;
  unevaluated?: UnevaluatedRule;
}

/**
 * The core check behind every {@link Checks} method: `ok` must hold. Records the outcome on the
 * clause(s) and throws {@link ConformanceFailure} with expected against actual when it does not
 * (or, when the engine's `unevaluated` rule names a reason, "not evaluated" with that reason).
 */
function check(e: Engine, requirement: string, ok: boolean, detail: { expected: unknown; actual: unknown; res?: ApiResponse }): void {
  const { ids, record } = e;
  if (ok) {
    record.judge({ clauses: ids, requirement, ok: true });
    return;
  }
  const why = e.unevaluated?.(detail.res, record);
  const text = record.judge({
    clauses: ids,
    requirement,
    ok: false,
    expected: detail.expected,
    actual: detail.actual,
    unevaluated: why,
    evidence: () => describeExchange(detail.res),
  })!;
  throw new ConformanceFailure(text, ids);
}

/**
 * Checks a value against a named schema (helpers/spec/validator.ts), explaining each violation with its
 * JSON path and offending value; undocumented fields are recorded as drift, not failed.
 */
function checkSchema(e: Engine, requirement: string, schema: string, value: unknown, res?: ApiResponse): void {
  const result = validate(schema, value);
  check(e, requirement, result.ok, {
    expected: `valid against schemas/${schema.split('#')[0]}.json`,
    actual: result.ok ? 'valid' : `\n${formatIssues(result.issues).replace(/^/gm, '    ')}`,
    res,
  });
  if (result.ok) e.record.drift(...findDrift(schema, value));
}

/** The checks of one test; every one records its outcome on the verifier's clause ids. */
export interface Checks {
  /** The core check: `ok` must hold (expected and actual as the caller words them). */
  that(requirement: string, ok: boolean, detail: { expected: unknown; actual: unknown; res?: ApiResponse }): void;
  /** Deep equality of `actual` and `expected`; both are shown on failure. */
  equal(requirement: string, actual: unknown, expected: unknown, res?: ApiResponse): void;
  /**
   * An error answer (§7): `status` and, when given, `error.code`, branching on the code, never
   * the message. The requirement defaults to "<METHOD> <path> answers <status> <code>".
   */
  error(res: ApiResponse, status: number, code?: string, requirement?: string): void;
  /** A 2xx answer (or exactly `status`). The requirement defaults to "<METHOD> <path> answers 2xx". */
  success(res: ApiResponse, status?: number, requirement?: string): void;
  /** `value` validates against `schemas/<schema>.json`; undocumented fields are recorded as drift. */
  schema(requirement: string, schema: string, value: unknown, res?: ApiResponse): void;
  /**
   * "Nothing changed": `shape`'s part of `after` deep-equals its part of `before` (a refused write
   * changed nothing, every other field kept, a replay converged). What is compared is the named
   * {@link Shape} (helpers/spec/documented.ts: `documented('assistant')`, `documented('assistant',
   * WRITE_STAMPS)`, `fields(names)`, `answerOf(shape)`); a failure lists each field that moved.
   * A change another writer made (not this test's writes) ends the test in `error` instead
   * (helpers/live/write-journal.ts).
   */
  unchanged(requirement: string, before: unknown, after: unknown, shape: Shape, res?: ApiResponse): void;
  /**
   * A reading (h2spec-style named verifier): the value at `path` of `value` (a GET's data) reads as
   * `reading` (helpers/generate/paths.ts: `equals`, `numeric`, `contains`, `type` (an array, an
   * object, a string), `present`, or `cleared` with the accepted readings null, absent, {}, []);
   * expected and actual are derived ("cleared: null or absent", "absent"), an absent value never
   * equals anything.
   */
  reads(requirement: string, value: unknown, path: readonly PathSegment[], reading: Reading, res?: ApiResponse): void;
  /**
   * A refusal whose exact status the spec does not state: any 4xx, except the statuses in
   * `except` (e.g. [429] where the limiter's answer would prove nothing). The requirement defaults
   * to "<METHOD> <path> is refused with a 4xx".
   */
  refused(res: ApiResponse, requirement?: string, except?: readonly number[]): void;
  /**
   * Listed or recorded: `text` (an id, a label) occurs as a string value anywhere in `value` (a
   * list whose row shape the spec does not show, §4.5); with `keys`, also as a property name, with
   * `text`, anywhere in a raw body (helpers/checks/judgments.ts {@link ContainsOptions}). A failure shows
   * the rows' ids, or the document.
   */
  contains(requirement: string, value: unknown, text: string, res?: ApiResponse, opts?: ContainsOptions): void;
  /** Not listed, not kept: `text` occurs nowhere in `value` (the inverse of {@link Checks.contains}). */
  lacks(requirement: string, value: unknown, text: string, res?: ApiResponse, opts?: ContainsOptions): void;
  /**
   * Silence: nothing in `found` (deliveries that must not have come in a window, rows of another
   * tenant, fields missing from rows). A failure counts them and shows the first three.
   */
  none(requirement: string, found: readonly unknown[], expected: string, res?: ApiResponse): void;
  /**
   * Arrival in a window: what was waited for (a delivery, a retry, a 429 by the mint past the
   * budget) came before the window closed: `arrived` is neither undefined nor null. `seen` words
   * what came instead ("no 429 in 31 mints").
   */
  arrived(requirement: string, arrived: unknown, expected: string, seen: string, res?: ApiResponse): void;
  /** Every one of `items` satisfies `holds`; a failure counts the others and shows the first three. */
  every<T>(requirement: string, items: readonly T[], holds: (item: T) => boolean, expected: string, res?: ApiResponse): void;
  /**
   * A §7 refusal's `error.details` names one of `names` (helpers/checks/judgments.ts `fieldNamed`: the
   * field, or a path through it). The requirement defaults to "error.details names a or b".
   */
  namesField(res: ApiResponse, names: string | readonly string[], requirement?: string): void;
  /**
   * A refusal in another form than the stated one (Autobahn's "non-strict": a 400 from the HTTP
   * layer instead of 401 UNAUTHORIZED): graded non-strict, never a failure; conformance.md lists
   * it under "Non-strict refusals".
   */
  nonStrict(requirement: string, detail: string): void;
  /** An informational finding (drift, timing): reported, never a failure. */
  inform(requirement: string, ok: boolean, detail: string): void;
}

/** {@link Checks} bound to a test's clause ids, with a soft mode and a way to name other ids. */
export interface Verify extends Checks {
  /** The clause ids every check of this verifier names. */
  readonly clauses: readonly string[];
  /** Every clause id the test declares: what `on(ids)` accepts. */
  readonly declared: readonly string[];
  /** The record the checks are written into. */
  readonly record: TestRecorder;
  /** The same checks, recorded without stopping the test; the test fails at its end. */
  readonly soft: Checks;
  /**
   * A verifier naming `ids` instead (a check that proves another clause of the test, or a §7 rule), on the same record.
   * @throws UndeclaredClauseError when an id is not one the test declares ({@link Verify.declared}).
   */
  on(ids: string | string[]): Verify;
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

/** "name: before → after" for each top-level field that moved (helpers/spec/unchanged.ts); the whole values when either is not an object. */
function movedFields(before: unknown, after: unknown): string {
  if (!isObject(before) || !isObject(after)) return `${render(before)} → ${render(after)}`;
  return movedKeys(before, after)
    .map((k) => `${k}: ${render(before[k])} → ${render(after[k])}`)
    .join('; ');
}

function checksFor(e: Engine, wrap: (fn: () => void) => void): Checks {
  const { ids, record } = e;
  const judged = (requirement: string, j: Judgment, res?: ApiResponse) =>
    wrap(() => check(e, requirement, j.ok, { expected: j.expected, actual: j.actual, res }));
  return {
    that: (requirement, ok, detail) => wrap(() => check(e, requirement, ok, detail)),
    equal: (requirement, actual, expected, res) => judged(requirement, equalJudgment(actual, expected), res),
    error: (res, status, code, requirement) => {
      const j = errorJudgment(res, status, code);
      judged(requirement ?? `${requestWords(res)} answers ${j.expected}`, j, res);
    },
    success: (res, status, requirement) => judged(requirement ?? `${requestWords(res)} answers ${status ?? '2xx'}`, successJudgment(res, status), res),
    schema: (requirement, schema, value, res) => wrap(() => checkSchema(e, requirement, schema, value, res)),
    unchanged: (requirement, before, after, shape, res) =>
      wrap(() => {
        const was = shape.part(before);
        const now = shape.part(after);
        // "Unchanged" is defined once (helpers/spec/unchanged.ts); a change another writer made is no verdict on the API (an `error`): helpers/live/write-journal.ts.
        const same = sameValue(was, now);
        if (!same) judgeChange(was, now, before, res, record);
        check(e, requirement, same, { expected: `${shape.name} as before (${UNCHANGED_RULE})`, actual: `moved: ${movedFields(was, now)}`, res });
      }),
    reads: (requirement, value, path, reading, res) => judged(requirement, readingJudgment(value, path, reading), res),
    refused: (res, requirement, except) => judged(requirement ?? `${requestWords(res)} is refused with a 4xx`, refusedJudgment(res, except), res),
    contains: (requirement, value, text, res, opts) => judged(requirement, containsJudgment(value, text, opts), res),
    lacks: (requirement, value, text, res, opts) => judged(requirement, lacksJudgment(value, text, opts), res),
    none: (requirement, found, expected, res) => judged(requirement, noneJudgment(found, expected), res),
    arrived: (requirement, arrived, expected, seen, res) => judged(requirement, arrivedJudgment(arrived, expected, seen), res),
    every: (requirement, items, holds, expected, res) => judged(requirement, everyJudgment(items, holds, expected), res),
    namesField: (res, names, requirement) => {
      const list = typeof names === 'string' ? [names] : names;
      judged(requirement ?? `error.details names ${list.join(' or ')}`, namesFieldJudgment(res, list), res);
    },
    nonStrict: (requirement, detail) => void record.judge({ clauses: ids, requirement, ok: true, level: 'non-strict', actual: detail }),
    inform: (requirement, ok, detail) => void record.judge({ clauses: ids, requirement, ok, level: 'informational', actual: detail }),
  };
}

/**
 * A judgment many tests share that records checks on clauses of its own besides the test's (a
 * refusal's §4.1 details, a §7 rule, a §6 delivery rule): its clause ids travel with it, so a test
 * that lists it among its clauses declares them. Made by {@link sharedVerifier}.
 */
export interface SharedVerifier {
  /** The clause ids the verifier records on, besides the test's own (through `verify.on`). */
  readonly clauses: readonly string[];
}

/**
 * Makes `fn` a {@link SharedVerifier} carrying `clauses`: `fn` takes the test's `Verify` and may
 * record on `clauses` through `verify.on(…)`, which a test accepts once it lists `fn` among its
 * clauses. Answers `fn` itself, with `clauses` attached.
 * @throws Error when `clauses` is empty (a verifier that records only the test's clauses needs no declaration).
 */
export function sharedVerifier<F extends (...args: never[]) => unknown>(clauses: string | readonly string[], fn: F): F & SharedVerifier {
  const ids = typeof clauses === 'string' ? [clauses] : [...clauses];
  if (ids.length === 0) throw new Error('a shared verifier carries at least one clause id');
  return Object.assign(fn, { clauses: ids });
}

/**
 * A verifier naming `ids` (one id or several), writing into `opts.record`. `clauseTest` hands one
 * to every test as `ctx.verify`; a suite uses that one (and `verify.on(ids)`), never this
 * function. Build one directly only where no clause test runs (unit tests of helpers that take a
 * `Verify`; without `opts.record` the checks go to a record of the verifier's own, `verify.record`).
 * @throws Error when `ids` is empty (a check must name a clause); UndeclaredClauseError when an
 * id is not in `opts.declared`.
 */
export function verifier(ids: string | string[], opts: VerifierOptions = {}): Verify {
  const list = Array.isArray(ids) ? [...ids] : [ids];
  if (list.length === 0) throw new Error('a verifier needs at least one clause id');
  const declared = opts.declared ?? list;
  const undeclared = list.filter((id) => !declared.includes(id));
  if (undeclared.length) throw new UndeclaredClauseError(undeclared, declared);
  const record = opts.record ?? new TestRecorder({});
  const engine: Engine = { ids: list, record, unevaluated: opts.unevaluated };
  return {
    clauses: list,
    declared,
    record,
    ...checksFor(engine, (fn) => fn()),
    soft: checksFor(engine, continueOnFailure),
    on: (other) => verifier(other, { ...opts, record, declared }),
  };
}
