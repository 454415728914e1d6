/**
 * Clause tests: declaring a test, its time budget and its skips. A test names the spec clauses it
 * proves; its name is the requirement followed by the ids in brackets, so `-t <clause>` selects
 * it. Its body receives `verify` (helpers/checks/engine.ts, the check engine), which names the test's
 * clauses on every check and writes into the test's record:
 *
 *   clauseTest('5.1/bearer-401', '`Bearer` is rejected with 401', async ({ verify }) => {
 *     const res = await world().as('tenantA').withVariant('bearer').get('/assistants');
 *     verify.error(res, 401, 'UNAUTHORIZED');            // "GET /assistants answers 401 UNAUTHORIZED"
 *     verify.soft.schema('the error envelope', 'envelope.error', res.json, res);
 *     verify.on('7/error-envelope').equal('success is false', res.json.success, false, res);
 *   });
 *
 * `verify` is the one way to write a check. A helper that checks on a test's behalf takes the
 * test's `Verify` (a shared verifier, helpers/webhooks/verifiers.ts) or the `Checks` it bound (e.g.
 * `verify.on(id).soft`, helpers/webhooks/watch.ts).
 *
 * Every clause a test records is one it declares (Kubernetes' conformance list is generated from
 * the code the same way: a test's name is what it proves). `verify.on(id)` refuses an id the test
 * does not declare; a shared verifier that records clauses of its own carries them
 * (helpers/checks/engine.ts `sharedVerifier`), and a test that calls it lists it among its clauses
 * (`clauseTest(['2.2/request-types', checkRefused], …)`), which adds those ids to its declaration
 * (name, `-t`, the catalogue's coverage). The audits' clauses ({@link AUDITED_CLAUSES}: the
 * envelope audit's and the invariant audits') are the one exception: they are recorded on
 * whatever test's exchange an audit judges. A test that ends having recorded any other undeclared clause is an error.
 */
import { setMaxListeners } from 'node:events';
import { seconds } from '../base/values';
import { describe, test, type RunnerTestCase as Test, type TestContext } from 'vitest';
import { currentRecord, currentScope, runAsTest, type TestScope } from '../record/current-test';
import { Budget, testBudgetMs, testWallMs, vitestTimeoutMs } from '../base/deadline';
import { CREDENTIAL_REFUSED_NAME, EVENT_UNSUPPORTED_NAME, OUT_OF_TIME_ERROR_NAME } from '../base/error-names';
import { capabilityReason, capabilitySwitch, hasCapability, switchesOfReason, type Capability, type Switch } from '../target/target';
import { redact } from '../base/redact';
import { routeNotServed, statusLine, type ApiResponse } from '../base/exchange';
import { ConformanceFailure, verifier, type SharedVerifier, type Verify } from './engine';
import { AUDIT_CLAUSES, notJsonRule } from '../audits/envelope';
import { INVARIANT_AUDIT_CLAUSES } from '../audits';
import type { CheckRecord } from '../base/meta';
import { attachFailureEvidence, clauseLabels } from './allure';

export { sharedVerifier, type Checks, type SharedVerifier, type Verify } from './engine';

/** What a test lists as the clauses it proves: clause ids, and shared verifiers whose ids it takes on. */
export type ClauseList = string | SharedVerifier | readonly (string | SharedVerifier)[];

/**
 * A test's clause list read: `own` are its clause ids (what its checks name by default,
 * `verify.clauses`); `declared` is `own` followed by each id its shared verifiers carry that is
 * not already there. The name, the meta and what `verify.on` accepts come from `declared`.
 * @throws Error when the list holds no clause id of the test's own.
 */
export function declaredClauses(list: ClauseList): { own: string[]; declared: string[] } {
  const items = typeof list === 'string' || !Array.isArray(list) ? [list as string | SharedVerifier] : (list as readonly (string | SharedVerifier)[]);
  const own = items.filter((i): i is string => typeof i === 'string');
  if (own.length === 0) throw new Error('a clause test names at least one clause id of its own');
  const shared = items.filter((i): i is SharedVerifier => typeof i !== 'string');
  return { own, declared: [...new Set([...own, ...shared.flatMap((v) => v.clauses)])] };
}

/**
 * The clauses the audits record on whatever test's exchange they judge, declared or not: the
 * envelope audit's (helpers/audits/envelope.ts `AUDIT_CLAUSES`) and the invariant audits' (helpers/audits
 * `INVARIANT_AUDIT_CLAUSES`). The one stated exception to "every recorded clause is a declared one".
 */
export const AUDITED_CLAUSES: readonly string[] = [...new Set([...AUDIT_CLAUSES, ...INVARIANT_AUDIT_CLAUSES])];

/**
 * The checks of a record that name a clause the test does not declare, the audits' clauses aside
 * ({@link AUDITED_CLAUSES}): empty for a test whose traceability holds.
 */
export function undeclaredChecks(declared: readonly string[], checks: readonly CheckRecord[]): CheckRecord[] {
  return checks.filter((c) => c.clauses.some((id) => !declared.includes(id) && !AUDITED_CLAUSES.includes(id)));
}

/** What a clause test's body receives: vitest's test context and the test's {@link Verify}. */
export type ClauseContext = TestContext & { verify: Verify };

/** Options of a clause test. */
export interface ClauseTestOptions {
  /** Capabilities the test needs; missing ones skip it with the reason. */
  requires?: Capability[];
  /**
   * The test's budget in ms (charged time: queued time excluded); default three request deadlines
   * (helpers/base/deadline.ts). Its wall cap and vitest's timeout are derived from it.
   */
  timeout?: number;
  /**
   * Runs beside the concurrent tests next to it (vitest `test.concurrent`) in a describe block that is
   * not itself concurrent, so the block still runs apart from its sibling blocks. Default: the block's.
   */
  concurrent?: boolean;
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
 * Declares a conformance test that proves `clauses`: clause ids, and the shared verifiers its body
 * calls (helpers/checks/engine.ts `sharedVerifier`), whose ids it declares too. The name is the requirement followed by every declared id in brackets, so
 * `-t 5.6/rotated-key` selects it. The body receives `verify`, naming `clauses` on every check and
 * accepting any declared id in `verify.on`; a soft check that failed fails the test when the body
 * ends, and so does a check recorded on an undeclared clause (an error, not a verdict).
 */
export function clauseTest(clauses: ClauseList, requirement: string, fn: (ctx: ClauseContext) => Promise<void> | void, opts: ClauseTestOptions = {}): void {
  const { own: ids, declared } = declaredClauses(clauses);
  const limits = { budgetMs: testBudgetMs(opts.timeout), wallMs: testWallMs(opts.timeout) };
  // `concurrent` is named only when asked for: an undefined one would override a concurrent block's.
  const mode = opts.concurrent ? { concurrent: true } : {};
  test(`${requirement} [${declared.join(' ')}]`, { meta: { clauses: declared }, timeout: vitestTimeoutMs(opts.timeout), ...mode }, (ctx) =>
    runJudged(
      ctx.task,
      limits,
      async () => {
        await clauseLabels(declared);
        const lacking = (opts.requires ?? []).filter((cap) => !hasCapability(cap));
        if (lacking.length) skipWith(ctx, capabilityReason(lacking[0]!), lacking.map(capabilitySwitch));
        const record = currentScope()!.record!;
        await fn(Object.assign(ctx, { verify: verifier(ids, { record, declared, unevaluated: notJsonRule }) }));
        // Soft failures recorded along the way (the envelope audit) fail the test now.
        const soft = record.checks.filter((c) => !c.ok && c.level !== 'informational');
        if (soft.length)
          throw new ConformanceFailure(
            soft.map((c) => c.detail ?? c.requirement).join('\n\n'),
            soft.flatMap((c) => c.clauses),
          );
        // Traceability: a check on a clause the test does not declare is the suite's error, not a verdict.
        const leaked = undeclaredChecks(declared, record.checks);
        if (leaked.length)
          throw new Error(
            `checks recorded on clauses the test does not declare [${declared.join(' ')}]: ${[...new Set(leaked.flatMap((c) => c.clauses))].join(', ')}` +
              " (declare them, or carry them on a shared verifier listed among the test's clauses)",
          );
      },
      async (e) => {
        // The event trigger cannot cause what the test needs, or a credential it needs was refused before
        // the first test (helpers/credentials.ts): a skip with that reason, not a failure.
        const name = (e as Error)?.name;
        if (name === EVENT_UNSUPPORTED_NAME || name === CREDENTIAL_REFUSED_NAME) skipWith(ctx, (e as Error).message);
        await attachFailureEvidence();
      },
    ),
  );
}

/**
 * Runs a test body as `task` under its limits (helpers/base/deadline.ts): its budget (charged time,
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
  // Each of the test's requests in flight listens for its judgement, and one test may send hundreds
  // at once (the robustness phase): no leak, so no MaxListenersExceededWarning for that many. A
  // thousand still warns (listeners that are never removed).
  setMaxListeners(1000, judged.signal);
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
        scope.record?.targetTrouble(e.message);
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
 * lift the skip (helpers/target/target.ts `Switch`); when omitted, those `reason` was tagged with by
 * `switchReason` (every capability and missing-fixture reason is). Never returns.
 */
export function skipWith(ctx: TestContext, reason: string, needs?: Switch | Switch[]): never {
  currentRecord()?.skipReason(reason, needs === undefined ? switchesOfReason(reason) : Array.isArray(needs) ? needs : [needs]);
  ctx.skip(reason);
  throw new Error('unreachable');
}

/**
 * Skips the running test, as a failed precondition, when `res` says the route is not served
 * (helpers/base/exchange.ts `routeNotServed`): for routes whose method the spec does not show, or a
 * fixture route a target may not have. `what` names the request (`GET /turn-flags`); `note` is
 * appended to the reason. Never returns when it skips.
 */
export function skipUnlessServed(ctx: TestContext, res: ApiResponse, what: string, note?: string): void {
  if (routeNotServed(res)) skipWith(ctx, `precondition failed: ${what} is not served (${statusLine(res)})${note ? `; ${note}` : ''}`);
}

/**
 * A `describe` whose tests run side by side on a simulator (each on fixtures of its own, made
 * through the control API) and in order on a live tenant (one lane's shared fixtures, real calls):
 * `describe.concurrent` or `describe.sequential`, chosen by the target's control API.
 */
export function sideBySide(name: string, body: () => void): void {
  (hasCapability('control') ? describe.concurrent : describe.sequential)(name, body);
}
