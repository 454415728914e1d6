/**
 * The verdict of one test, from what vitest reports and what the test recorded (helpers/base/meta.ts).
 * One function, so every reader agrees on it (docs/reports.md "Verdicts"):
 * - `pass`: the test passed;
 * - `skip`: vitest skipped it (a missing capability, an optional fixture absent, an opt-in not given);
 * - `error`: it failed because the target or the network misbehaved, not on a conformance check:
 *   the test recorded target trouble (no answer of the API after the retries, or it ran out of
 *   time), or its first error is a {@link TARGET_ERROR_NAME} (client), {@link CONTROL_ERROR_NAME}
 *   (control API) or {@link OUT_OF_TIME_ERROR_NAME} (cut off at its budget), or vitest's own
 *   timeout; or it never ran because its file's set-up failed (a `beforeAll`, world provisioning):
 *   nothing was verified, and a skip would read as "does not apply"; or the run's own side spoilt
 *   the evidence ({@link OWN_SIDE_ERROR_NAME}: another writer changed a fixture between the test's
 *   reads, the runner's clock ran late over a timed window; helpers/live/own-side.ts);
 * - `fail`: it failed otherwise, a conformance check (`ConformanceAssertionError`) above all.
 *
 * A test with both a failed check and target trouble is judged by their order
 * ({@link TroubleTiming}). A check that failed before the first trouble judged an answer of the
 * API that the trouble, coming later, cannot have shaped: the test is `fail`, since an `error`
 * would hide a real defect behind a bad night of the network. A check that failed only after
 * the trouble may be its consequence (a lost write the target applied after all, then read back as
 * "changed"; a refused write's "unchanged" check after a request that got no answer): the test is
 * `error`, and its failed check still names its clause in the record.
 */
import type { TestVerdict } from './model';
import { CONTROL_ERROR_NAME, CREDENTIAL_REFUSED_NAME, OUT_OF_TIME_ERROR_NAME, OWN_SIDE_ERROR_NAME, TARGET_ERROR_NAME } from '../base/error-names';

/** vitest's end state of a test case (`TestCase.result().state`). */
export type TestState = 'passed' | 'failed' | 'skipped' | 'pending';

/**
 * Where target trouble stands in a test (helpers/base/meta.ts `targetTrouble`, `failedBeforeTrouble`):
 * `none` (no trouble recorded), `first` (trouble before any failed check, or with none), or
 * `after-a-failed-check` (a check had already failed on an answer that arrived before it).
 */
export type TroubleTiming = 'none' | 'first' | 'after-a-failed-check';

/** The {@link TroubleTiming} of a test from what it recorded. */
export function troubleTiming(meta: { targetTrouble?: boolean; failedBeforeTrouble?: boolean }): TroubleTiming {
  if (!meta.targetTrouble) return 'none';
  return meta.failedBeforeTrouble ? 'after-a-failed-check' : 'first';
}

/** How vitest words its own timeout of a test or hook. */
const VITEST_TIMEOUT = /^(Test|Hook) timed out in \d+ms/;

/**
 * The verdict of a test (see the module comment).
 * @param state vitest's end state
 * @param firstErrorName `name` of the test's first error, when it failed
 * @param trouble whether and when the test met target trouble ({@link troubleTiming})
 * @param setUpFailed whether the test was skipped only because its file's or block's set-up failed
 *   (see {@link setUpFailure}); such a skip is an `error`
 * @param firstErrorMessage `message` of the test's first error (vitest's own timeout is recognised by it)
 */
export function testVerdict(
  state: TestState,
  firstErrorName: string | undefined,
  trouble: TroubleTiming,
  setUpFailed = false,
  firstErrorMessage?: string,
): TestVerdict {
  if (state === 'passed') return 'pass';
  if (state !== 'failed') return setUpFailed ? 'error' : 'skip';
  if (trouble === 'after-a-failed-check') return 'fail';
  if (trouble === 'first') return 'error';
  if (firstErrorName === TARGET_ERROR_NAME || firstErrorName === CONTROL_ERROR_NAME || firstErrorName === OUT_OF_TIME_ERROR_NAME) return 'error';
  if (firstErrorName === OWN_SIDE_ERROR_NAME) return 'error';
  if (firstErrorMessage && VITEST_TIMEOUT.test(firstErrorMessage)) return 'error';
  return 'fail';
}

/** What {@link setUpFailure} reads of a test: vitest's TestCase, reduced to the parts it needs. */
export interface SetUpView {
  result(): { state: string };
  options: { mode?: string };
  parent: SetUpParent;
}
/** A describe block or the module of a test, as {@link setUpFailure} reads it. */
export interface SetUpParent {
  type: string;
  errors(): readonly { name?: string; message?: string }[];
  parent?: SetUpParent;
}

/**
 * Why a skipped test never ran, when its set-up failed: the first error of the nearest enclosing
 * block or module that has one (vitest records `beforeAll` failures there and skips the tests),
 * as `set-up failed before the test ran: <name>: <first line>`. Undefined when the test was meant
 * to be skipped (`it.skip`, `skipIf`: mode other than `run`), recorded its own skip reason, or no
 * enclosing block failed.
 */
export function setUpFailure(tc: SetUpView, skipReason: string | undefined): string | undefined {
  const e = setUpError(tc, skipReason);
  if (!e || e.name === CREDENTIAL_REFUSED_NAME) return undefined;
  return `set-up failed before the test ran: ${e.name ?? 'Error'}: ${(e.message ?? '').split('\n')[0]}`;
}

/**
 * The skip reason of a test whose file's or block's set-up needed a credential form the check
 * before the first test refused (helpers/credentials.ts `CredentialRefusedError`): the error's
 * message, naming the variable and the answer. Such a test is a `skip`, not an `error`: the
 * operator's credential, not the target, kept it from running. Undefined otherwise.
 */
export function setUpSkip(tc: SetUpView, skipReason: string | undefined): string | undefined {
  const e = setUpError(tc, skipReason);
  return e?.name === CREDENTIAL_REFUSED_NAME ? (e.message ?? 'credential refused before the first test') : undefined;
}

/** The first error of the nearest enclosing block or module of a test skipped by its set-up (see {@link setUpFailure}). */
function setUpError(tc: SetUpView, skipReason: string | undefined): { name?: string; message?: string } | undefined {
  if (tc.result().state !== 'skipped' || tc.options.mode !== 'run' || skipReason) return undefined;
  for (let p: SetUpParent | undefined = tc.parent; p; p = p.type === 'module' ? undefined : p.parent) {
    const e = p.errors()[0];
    if (e) return e;
  }
  return undefined;
}
