/**
 * Our own side never reads as the API's failure (issue 32): when the evidence a check needs was
 * spoilt by something on the run's side — another writer changed a fixture between the test's
 * reads (helpers/live/write-journal.ts), the runner's own clock ran late over a timed window, a limit
 * check could not finish inside the window it judges — the test ends with an {@link OwnSideError}:
 * an `error` verdict naming what happened, never a `fail` (helpers/report/verdict.ts). The record
 * keeps the kind (`tests[].ownSide`) and the run record counts each kind (`ownSide`), so a night
 * that met another run says so.
 */
import { OWN_SIDE_ERROR_NAME } from '../base/error-names';
import type { OwnSideKind } from '../base/meta';
import { currentRecord } from '../record/current-test';
import type { TestRecorder } from '../record/test-recorder';
import { redact } from '../base/redact';

export type { OwnSideKind } from '../base/meta';

/** Ends a test whose evidence the run's own side spoilt: an `error` verdict, never a `fail`. */
export class OwnSideError extends Error {
  /**
   * @param kind what spoilt the evidence
   * @param message what happened, in words ("another writer changed assistant … at …"); redacted here
   */
  constructor(
    readonly kind: OwnSideKind,
    message: string,
  ) {
    super(redact(message));
    this.name = OWN_SIDE_ERROR_NAME;
  }
}

/**
 * Records on a test (`record`, default the running test's) that its evidence was spoilt on the
 * run's own side — the kind, and the words as target trouble, so a check that had already failed
 * on an earlier answer keeps the test a `fail` — and returns the error to throw.
 */
export function ownSide(kind: OwnSideKind, message: string, record: TestRecorder | undefined = currentRecord()): OwnSideError {
  const e = new OwnSideError(kind, message);
  record?.ownSide(kind, e.message);
  return e;
}
