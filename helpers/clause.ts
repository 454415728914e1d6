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
import { currentTest, runAsTest } from './current-test';
import { isDeepStrictEqual } from 'node:util';
import * as allure from 'allure-js-commons';
import { capabilityReason, hasCapability, type Capability } from './target';
import { redact } from './redact';
import type { ApiResponse } from './client';
import type { CheckRecord } from './meta';
import { findDrift, formatIssues, validate } from './validator';
import { attachFailureEvidence, clauseLabels } from './report/allure';
import './meta';

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
      const soft = (currentTest()?.meta.checks ?? []).filter((c) => !c.ok && c.level !== 'informational');
      if (soft.length) throw new ConformanceFailure(soft.map((c) => c.detail ?? c.requirement).join('\n\n'), soft.flatMap((c) => c.clauses));
    } catch (e) {
      await attachFailureEvidence();
      throw e;
    }
  }));
}

/** Skips the running test with a reason the report shows. Never returns. */
export function skipWith(ctx: TestContext, reason: string): never {
  const t = currentTest();
  if (t) t.meta.skipReason = reason;
  ctx.skip(reason);
  throw new Error('unreachable');
}

function record(rec: CheckRecord): void {
  const t = currentTest();
  if (!t) return;
  (t.meta.checks ??= []).push(rec);
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

/** One-line description of an exchange for failure messages (redacted). */
export function describeExchange(res: ApiResponse | undefined): string {
  if (!res) return '';
  const auth = res.request.headers.authorization ?? (res.request.headers['x-api-key'] ? `X-Api-Key ${res.request.headers['x-api-key']}` : 'no credential');
  const tenant = res.request.headers['x-tenant-id'] ? `  x-tenant-id: ${res.request.headers['x-tenant-id']}` : '';
  const body = res.text.length > 500 ? `${res.text.slice(0, 500)}…` : res.text;
  return redact(`\n  request:  ${res.request.method} ${res.request.path}  authorization: ${auth}${tenant}\n  answer:   ${res.status} ${body}`);
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
    record({ clauses: ids, requirement, ok: true });
    return;
  }
  const text = redact(
    `[${ids.join(' ')}] ${requirement}\n  expected: ${typeof detail.expected === 'string' ? detail.expected : show(detail.expected)}\n  actual:   ${typeof detail.actual === 'string' ? detail.actual : show(detail.actual)}`,
  ) + describeExchange(detail.res);
  record({ clauses: ids, requirement, ok: false, detail: text });
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
  record({ clauses: asList(clauses), requirement, ok: true, level: 'non-strict', detail: redact(detail) });
}

/** An informational finding: recorded and reported, never fails the test (drift, timing). */
export function inform(clauses: string | string[], requirement: string, ok: boolean, detail: string): void {
  record({ clauses: asList(clauses), requirement, ok, level: 'informational', detail: redact(detail) });
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
    const drift = findDrift(schema, value);
    if (drift.length) {
      const t = currentTest();
      if (t) (t.meta.drift ??= []).push(...drift);
    }
  }
}
