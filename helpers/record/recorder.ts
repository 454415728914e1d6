/**
 * The running test's record, for the code that works on a test's behalf without being handed its
 * record: the client (exchanges, request counts, target trouble, answers not JSON) and the
 * envelope audit it feeds. The record itself is helpers/record/test-recorder.ts; the running test is found
 * through helpers/record/current-test.ts, so concurrent tests keep their own records. Outside a test
 * (hooks, plain scripts) nothing is recorded, nor once the test was judged. Checks do not come
 * through here: a test's `verify` writes into the record it was handed (helpers/checks/engine.ts).
 */
import { currentRecord } from './current-test';
import type { Exchange } from '../base/exchange';
import type { MatrixCell } from '../base/meta';
import '../base/meta';

export { KEPT_EXCHANGES } from './test-recorder';

/** Records one exchange on the running test (helpers/record/test-recorder.ts `TestRecorder.exchange`). `exchange` must already be redacted. */
export function recordExchange(exchange: Exchange, retries: number): void {
  currentRecord()?.exchange(exchange, retries);
}

/** Records one attempt's span on the running test: sent at `start`, ended at `end` (ms since the epoch; helpers/report/overlap.ts). */
export function recordSpan(start: number, end: number): void {
  currentRecord()?.span(start, end);
}

/** The exchanges kept on the running test (empty outside a test). */
export function recordedExchanges(): readonly Exchange[] {
  return currentRecord()?.exchanges ?? [];
}

/** Marks the running test as having met target trouble (helpers/record/test-recorder.ts `TestRecorder.targetTrouble`). */
export function recordTargetTrouble(what?: string): void {
  currentRecord()?.targetTrouble(what);
}

/** Counts one attempt that hung past the request deadline on the running test. */
export function recordHung(): void {
  currentRecord()?.hung();
}

/** Counts one answer whose body did not parse and whose request was sent once more (helpers/http/mangled.ts) on the running test. */
export function recordNotJsonResent(): void {
  currentRecord()?.notJsonResent();
}

/** Counts one answer that was not the API's (a gateway's 5xx page, a body cut short) on the running test. */
export function recordNotApi(): void {
  currentRecord()?.notApi();
}

/** Records the authorization-matrix cell the running test decides (rendered by the report writers). */
export function recordMatrixCell(cell: MatrixCell): void {
  currentRecord()?.matrixCell(cell);
}

/** Marks the running test as having received a complete 2xx answer whose body is not JSON (§2.1). */
export function recordNotJson(): void {
  currentRecord()?.markNotJson();
}
