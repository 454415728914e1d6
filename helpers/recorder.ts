/**
 * The one writer of per-test records: checks, drift, exchanges, request counts, target trouble
 * and skip reasons go into the running test's vitest task meta (shape: helpers/meta.ts) through
 * these functions only, and helpers/report/vitest-reporter.ts is their one reader. The running
 * test is found through helpers/current-test.ts, so concurrent tests keep their own records.
 * Outside a test (hooks, plain scripts) nothing is recorded.
 */
import { currentTest } from './current-test';
import type { Exchange } from './exchange';
import type { CheckRecord, DriftRecord, MatrixCell } from './meta';
import './meta';

/** How many exchanges a test keeps as failure evidence (the latest). */
export const KEPT_EXCHANGES = 5;

/** Records one clause-tagged check on the running test. */
export function recordCheck(rec: CheckRecord): void {
  const t = currentTest();
  if (t) (t.meta.checks ??= []).push(rec);
}

/** The checks recorded so far on the running test (empty outside a test). */
export function recordedChecks(): readonly CheckRecord[] {
  return currentTest()?.meta.checks ?? [];
}

/** Records undocumented fields or codes the target sent (§9.4: drift, reported, never failed). */
export function recordDrift(...drift: DriftRecord[]): void {
  const t = currentTest();
  if (t && drift.length) (t.meta.drift ??= []).push(...drift);
}

/**
 * Records one exchange: counts it (with `retries` resends) on the running test and keeps it among
 * the last {@link KEPT_EXCHANGES} as evidence. `exchange` must already be redacted.
 */
export function recordExchange(exchange: Exchange, retries: number): void {
  const t = currentTest();
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

/** Marks the running test as having met target trouble (no answer, 5xx after retries): a failure becomes an `error` verdict. */
export function recordTargetTrouble(): void {
  const t = currentTest();
  if (t) t.meta.targetTrouble = true;
}

/**
 * Records why the running test is skipped (shown in the report) and the switches that would lift
 * the skip (helpers/target.ts `Switch`; the report counts the clauses each would turn on).
 */
export function recordSkipReason(reason: string, needs: readonly string[] = []): void {
  const t = currentTest();
  if (!t) return;
  t.meta.skipReason = reason;
  if (needs.length) t.meta.skipNeeds = [...new Set(needs)];
}

/** Records the authorization-matrix cell the running test decides (rendered by the report writers). */
export function recordMatrixCell(cell: MatrixCell): void {
  const t = currentTest();
  if (t) t.meta.matrixCell = cell;
}
