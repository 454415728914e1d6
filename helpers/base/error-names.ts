/**
 * Names of the errors that end a test when the target or the control API misbehaved, as they
 * reach the reporter after serialisation (a bottom-floor module: the client and the control client
 * name their errors with these, and helpers/report/verdict.ts reads them as `error` verdicts).
 */

/** `name` of helpers/http/client.ts `TargetError` (no answer from the target, or throttled past the retries). */
export const TARGET_ERROR_NAME = 'TargetError';
/** `name` of helpers/target/control.ts `ControlError` (the control API refused or was unreachable). */
export const CONTROL_ERROR_NAME = 'ControlError';
/** `name` of helpers/target/events.ts `EventUnsupportedError` (the event trigger cannot cause that kind: the test skips). */
export const EVENT_UNSUPPORTED_NAME = 'EventUnsupportedError';
/** `name` of helpers/checks/clause.ts `OutOfTimeError` (a test cut off at its budget or wall cap: the target was slow, hung or throttling). */
export const OUT_OF_TIME_ERROR_NAME = 'OutOfTimeError';
/**
 * `name` of helpers/live/own-side.ts `OwnSideError`: the evidence a check needed was spoilt on the run's
 * own side (another writer changed a fixture between a test's reads, the runner's clock ran late,
 * a limit check could not finish inside the window it judges): an `error` verdict, never a `fail`.
 */
export const OWN_SIDE_ERROR_NAME = 'OwnSideError';
/**
 * `name` of helpers/credentials.ts `CredentialRefusedError`: the test (or its file's set-up) needs a
 * credential form that answered 401 to the check before the first test: the test skips, naming it.
 */
export const CREDENTIAL_REFUSED_NAME = 'CredentialRefusedError';
