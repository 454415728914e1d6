/**
 * Clause-tagged tests and checks. A test names the spec clauses it proves; each check inside it
 * names the clause(s) it proves too (OpenID-conformance style), states the requirement in plain
 * words, and on failure says expected against actual, h2spec style:
 *
 *   [5.6/bearer-rejected] `Authorization: Bearer <key>` is rejected with 401 UNAUTHORIZED
 *     expected: 401 UNAUTHORIZED
 *     actual:   200 (success envelope)
 *     request:  GET /assistants  authorization: Bearer [REDACTED]
 */
import { test, type TestContext } from 'vitest';
import { runAsTest } from './current-test';
import { isDeepStrictEqual } from 'node:util';
import { capabilityReason, hasCapability, type Capability } from './target';
import { redact } from './redact';
import { describeExchange, type ApiResponse } from './exchange';
import { recordCheck, recordDrift, recordedChecks, recordSkipReason } from './recorder';
import { findDrift, formatIssues, validate } from './validator';
import { attachFailureEvidence, clauseLabels } from './report/allure';

/**
 * Thrown by a failing check; its message reads like the spec. Its name, `ConformanceAssertionError`,
 * marks it as an assertion for report tools (Allure counts it "failed", not "broken").
 */
export class ConformanceFailure extends Error {
  constructor(message: string, readonly clauses: string[]) {
    super(message);
    this.name = CONFORMANCE_FAILURE_NAME;
  }
}

/** `name` of every {@link ConformanceFailure}, as it reaches reporters after serialisation. */
export const CONFORMANCE_FAILURE_NAME = 'ConformanceAssertionError';

function asList(ids: string | string[]): string[] {
  return Array.isArray(ids) ? ids : [ids];
}

/** Options of a clause test. */
export interface ClauseTestOptions {
  /** Capabilities the test needs; missing ones skip it with the reason. */
  requires?: Capability[];
  /** Timeout in ms. */
  timeout?: number;
}

/**
 * Declares a conformance test that proves `clauses`. The name is the requirement followed by the
 * ids in brackets, so `-t 5.6/rotated-key` selects it.
 */
export function clauseTest(
  clauses: string | string[],
  requirement: string,
  fn: (ctx: TestContext) => Promise<void> | void,
  opts: ClauseTestOptions = {},
): void {
  const ids = asList(clauses);
  test(`${requirement} [${ids.join(' ')}]`, { meta: { clauses: ids }, timeout: opts.timeout }, (ctx) => runAsTest(ctx.task, async () => {
    await clauseLabels(ids);
    for (const cap of opts.requires ?? []) {
      if (!hasCapability(cap)) skipWith(ctx, capabilityReason(cap));
    }
    try {
      await fn(ctx);
      // Soft failures recorded along the way (the envelope audit) fail the test now.
      const soft = recordedChecks().filter((c) => !c.ok && c.level !== 'informational');
      if (soft.length) throw new ConformanceFailure(soft.map((c) => c.detail ?? c.requirement).join('\n\n'), soft.flatMap((c) => c.clauses));
    } catch (e) {
      await attachFailureEvidence();
      throw e;
    }
  }));
}

/** Skips the running test with a reason the report shows. Never returns. */
export function skipWith(ctx: TestContext, reason: string): never {
  recordSkipReason(reason);
  ctx.skip(reason);
  throw new Error('unreachable');
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
 * The core check: `ok` must hold. Records the outcome on the clause(s) and throws
 * {@link ConformanceFailure} with expected against actual when it does not.
 */
export function check(
  clauses: string | string[],
  requirement: string,
  ok: boolean,
  detail: { expected: unknown; actual: unknown; res?: ApiResponse },
): void {
  const ids = asList(clauses);
  if (ok) {
    recordCheck({ clauses: ids, requirement, ok: true });
    return;
  }
  const text = redact(
    `[${ids.join(' ')}] ${requirement}\n  expected: ${typeof detail.expected === 'string' ? detail.expected : show(detail.expected)}\n  actual:   ${typeof detail.actual === 'string' ? detail.actual : show(detail.actual)}`,
  ) + describeExchange(detail.res);
  recordCheck({ clauses: ids, requirement, ok: false, detail: text });
  throw new ConformanceFailure(text, ids);
}

/** Checks deep equality of actual and expected. */
export function checkEqual(clauses: string | string[], requirement: string, actual: unknown, expected: unknown, res?: ApiResponse): void {
  check(clauses, requirement, isDeepStrictEqual(actual, expected), { expected, actual, res });
}

/**
 * Records a non-strict outcome (Autobahn's "non-strict"): the target refused as the spec wants,
 * but not in the stated form (a 400 from its HTTP layer instead of 401 UNAUTHORIZED). Never fails
 * the test; conformance.md lists it under "Non-strict refusals".
 */
export function nonStrict(clauses: string | string[], requirement: string, detail: string): void {
  recordCheck({ clauses: asList(clauses), requirement, ok: true, level: 'non-strict', detail: redact(detail) });
}

/** An informational finding: recorded and reported, never fails the test (drift, timing). */
export function inform(clauses: string | string[], requirement: string, ok: boolean, detail: string): void {
  recordCheck({ clauses: asList(clauses), requirement, ok, level: 'informational', detail: redact(detail) });
}

function statusLine(res: ApiResponse): string {
  const code = res.json?.error?.code;
  return code ? `${res.status} ${code}` : `${res.status}${res.json?.success === true ? ' (success envelope)' : ''}`;
}

/**
 * Checks an error answer: status and `error.code` (§7), branching on the code, never the message.
 */
export function checkError(clauses: string | string[], requirement: string, res: ApiResponse, status: number, code?: string): void {
  const actualCode = res.json?.error?.code;
  const ok = res.status === status && (code === undefined || actualCode === code);
  check(clauses, requirement, ok, { expected: code ? `${status} ${code}` : `${status}`, actual: statusLine(res), res });
}

/** Checks a 2xx answer (optionally an exact status). */
export function checkSuccess(clauses: string | string[], requirement: string, res: ApiResponse, status?: number): void {
  const ok = status === undefined ? res.status >= 200 && res.status < 300 : res.status === status;
  check(clauses, requirement, ok, { expected: status ? `${status}` : '2xx', actual: statusLine(res), res });
}

/**
 * Checks a value against a named schema (helpers/validator.ts), explaining each violation with its
 * JSON path and offending value; undocumented fields are recorded as drift, not failed.
 */
export function checkSchema(clauses: string | string[], requirement: string, schema: string, value: unknown, res?: ApiResponse): void {
  const result = validate(schema, value);
  check(clauses, requirement, result.ok, {
    expected: `valid against schemas/${schema.split('#')[0]}.json`,
    actual: result.ok ? 'valid' : `\n${formatIssues(result.issues).replace(/^/gm, '    ')}`,
    res,
  });
  if (result.ok) {
    recordDrift(...findDrift(schema, value));
  }
}
