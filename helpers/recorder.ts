/**
 * The one writer of per-test records: checks, drift, exchanges, request counts, target trouble
 * and skip reasons go into the running test's vitest task meta (shape: helpers/meta.ts) through
 * these functions only, and helpers/report/vitest-reporter.ts is their one reader. The running
 * test is found through helpers/current-test.ts, so concurrent tests keep their own records.
 * Outside a test (hooks, plain scripts) nothing is recorded, nor once the test was judged (a
 * cut-off test's late work changes nothing of its record).
 */
import { currentTest, judged } from './current-test';
import type { Exchange } from './exchange';
import { failedOnAnAnswer, type CheckRecord, type DriftRecord, type MatrixCell } from './meta';
import './meta';

/** The running test, unless it was already judged. */
function live() {
  return judged() ? undefined : currentTest();
}

/** How many exchanges a test keeps as failure evidence (the latest). */
export const KEPT_EXCHANGES = 5;

/** Records one clause-tagged check on the running test. */
export function recordCheck(rec: CheckRecord): void {
  const t = live();
  if (t) (t.meta.checks ??= []).push(rec);
}

/** The checks recorded so far on the running test (empty outside a test). */
export function recordedChecks(): readonly CheckRecord[] {
  return currentTest()?.meta.checks ?? [];
}

/** Records undocumented fields or codes the target sent (§9.4: drift, reported, never failed). */
export function recordDrift(...drift: DriftRecord[]): void {
  const t = live();
  if (t && drift.length) (t.meta.drift ??= []).push(...drift);
}

/**
 * Records one exchange: counts it (with `retries` resends) on the running test and keeps it among
 * the last {@link KEPT_EXCHANGES} as evidence. `exchange` must already be redacted.
 */
export function recordExchange(exchange: Exchange, retries: number): void {
  const t = live();
  if (!t) return;
  t.meta.requests = (t.meta.requests ?? 0) + 1 + retries;
  t.meta.retries = (t.meta.retries ?? 0) + retries;
  const list = (t.meta.exchanges ??= []);
  list.push(exchange);
  if (list.length > KEPT_EXCHANGES) list.shift();
}

/** The exchanges kept on the running test (empty outside a test). */
export function recordedExchanges(): readonly Exchange[] {
  return currentTest()?.meta.exchanges ?? [];
}

/**
 * Marks the running test as having met target trouble (no answer of the API after the retries, or
 * it ran out of time): a failure from then on becomes an `error` verdict, while a check that had
 * already failed keeps the test a `fail` (helpers/report/verdict.ts). `what` (redacted) is kept as
 * the first such trouble.
 */
export function recordTargetTrouble(what?: string): void {
  const t = live();
  if (!t) return;
  if (!t.meta.targetTrouble) t.meta.failedBeforeTrouble = (t.meta.checks ?? []).some(failedOnAnAnswer);
  t.meta.targetTrouble = true;
  if (what && !t.meta.trouble) t.meta.trouble = what;
}

/** Counts one attempt that hung past the request deadline on the running test. */
export function recordHung(): void {
  const t = live();
  if (t) t.meta.hung = (t.meta.hung ?? 0) + 1;
}

/** Counts one answer whose body did not parse and whose request was sent once more (helpers/mangled.ts) on the running test. */
export function recordNotJsonResent(): void {
  const t = live();
  if (t) t.meta.notJsonResent = (t.meta.notJsonResent ?? 0) + 1;
}

/** Counts one answer that was not the API's (a gateway's 5xx page, a body cut short) on the running test. */
export function recordNotApi(): void {
  const t = live();
  if (t) t.meta.notApi = (t.meta.notApi ?? 0) + 1;
}

/**
 * Records why the running test is skipped (shown in the report) and the switches that would lift
 * the skip (helpers/target.ts `Switch`; the report counts the clauses each would turn on).
 */
export function recordSkipReason(reason: string, needs: readonly string[] = []): void {
  const t = live();
  if (!t) return;
  t.meta.skipReason = reason;
  if (needs.length) t.meta.skipNeeds = [...new Set(needs)];
}

/** Records the authorization-matrix cell the running test decides (rendered by the report writers). */
export function recordMatrixCell(cell: MatrixCell): void {
  const t = live();
  if (t) t.meta.matrixCell = cell;
}

/** Marks the running test as having received a complete 2xx answer whose body is not JSON (§2.1). */
export function recordNotJson(): void {
  const t = live();
  if (t) t.meta.notJson = true;
}

/** Whether the running test received a complete 2xx answer whose body is not JSON. */
export function receivedNotJson(): boolean {
  return currentTest()?.meta.notJson === true;
}
