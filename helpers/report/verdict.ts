/**
 * The verdict of one test, from what vitest reports and what the test recorded (helpers/meta.ts).
 * One function, so every reader agrees on it (docs/reports.md "Verdicts"):
 * - `pass`: the test passed;
 * - `skip`: vitest skipped it (a missing capability, an optional fixture absent, an opt-in not given);
 * - `error`: it failed because the target or the network misbehaved, not on a conformance check:
 *   the test recorded target trouble (no answer after the retries), or its first error is a
 *   {@link TARGET_ERROR_NAME} (client) or {@link CONTROL_ERROR_NAME} (control API);
 * - `fail`: it failed otherwise, a conformance check (`ConformanceAssertionError`) above all.
 */
import type { TestVerdict } from './model';
import { CONTROL_ERROR_NAME, TARGET_ERROR_NAME } from '../error-names';

/** vitest's end state of a test case (`TestCase.result().state`). */
export type TestState = 'passed' | 'failed' | 'skipped' | 'pending';

/**
 * The verdict of a test (see the module comment).
 * @param state vitest's end state
 * @param firstErrorName `name` of the test's first error, when it failed
 * @param targetTrouble whether the test recorded target trouble (meta.targetTrouble)
 */
export function testVerdict(state: TestState, firstErrorName: string | undefined, targetTrouble: boolean): TestVerdict {
  if (state === 'passed') return 'pass';
  if (state !== 'failed') return 'skip';
  if (targetTrouble || firstErrorName === TARGET_ERROR_NAME || firstErrorName === CONTROL_ERROR_NAME) return 'error';
  return 'fail';
}
