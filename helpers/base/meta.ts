/**
 * The shape of what a conformance test records about itself ({@link TestMeta}, kept as the vitest
 * task's meta). Written only through a helpers/record/test-recorder.ts `TestRecorder`; read only by
 * helpers/report/vitest-reporter.ts.
 */
import type { Exchange } from './exchange';

/**
 * How the run's own side spoilt a test's evidence (helpers/live/own-side.ts): `foreign-write`, another
 * writer changed a fixture between the test's reads; `late-runner`, the runner's own clock ran late
 * over a timed window; `window`, a limit check could not finish inside the window it judges.
 */
export type OwnSideKind = 'foreign-write' | 'late-runner' | 'window';

/** Outcome of one clause-tagged check inside a test (OpenID-conformance style: ids on checks). */
export interface CheckRecord {
  /** Clause ids this check proves, e.g. ["5.6/bearer-rejected"]. */
  clauses: string[];
  /** The requirement in plain words. */
  requirement: string;
  /** true when the expectation held. */
  ok: boolean;
  /**
   * Verdict strength: `informational` checks never fail a test (drift, timing); `non-strict`
   * records a refusal that held in substance but not in the form the spec states (e.g. a 400 from
   * the HTTP layer where §5.6 says 401): the test passes, and the report lists it apart.
   */
  level?: 'must' | 'informational' | 'non-strict';
  /** Expected against actual, redacted, for failures and informational findings: the failure text as a person reads it. */
  detail?: string;
  /** What the clause expects, redacted (format 1.15: kept apart from `actual`, as h2spec's TestError keeps them). */
  expected?: string;
  /** What was found, redacted (format 1.15). */
  actual?: string;
  /**
   * Set on a failed check that could not be evaluated, with the reason (`the answer was not
   * JSON`): its clauses get an `error`, not a `fail`; the defect is judged once, by the envelope clause.
   */
  unevaluated?: string;
}

/** Whether a check failed on an answer it could judge: neither informational nor left unevaluated (an answer that was not JSON). */
export function failedOnAnAnswer(c: CheckRecord): boolean {
  return !c.ok && c.level !== 'informational' && !c.unevaluated;
}

/** Something the target sent that the spec does not document (reported, never failed; §9.4). */
export interface DriftRecord {
  /** `field`: undocumented property; `error-code`: error.code outside §7; `status`: undocumented status. */
  kind: 'field' | 'error-code' | 'status';
  /** Schema or route where it was seen. */
  where: string;
  /** JSON path of the property, or the code/status itself. */
  what: string;
}

/**
 * One cell of the authorization matrix (§4 × §5): a route crossed with a credential, what §5.6 and
 * §4.5 expect there, and what the target answered. Recorded by suites/authorization.test.ts and
 * rendered from the run record by helpers/report/authorization-matrix.ts.
 */
export interface MatrixCell {
  /** The route as the matrix names it, e.g. `GET /assistants/{id}`. */
  route: string;
  /** Spec section of the route (`4.1`, `4.5`). */
  section: string;
  /** Route scope: `tenant`, `org-only`, `org-audit` or `catalogue`. */
  scope: string;
  /** Credential column, e.g. `tenant key A`. */
  column: string;
  /** Outcomes §5.6 / §4.5 accept in this cell (`accepted`, `401 UNAUTHORIZED`, …). */
  expected: string[];
  /** `pass: <answer>`, `FAIL: <answer> (expected …)` or `skipped: <reason>`; redacted. */
  outcome: string;
  /** Row and column index in the suite's matrix, so the table keeps its order after a shard merge. */
  position: [number, number];
}

/** What one conformance test records about itself; vitest keeps it as the task's meta. */
export interface TestMeta {
  /** Exchanges each invariant audit judged during the test, by audit name (helpers/audits/). */
  audits?: Record<string, number>;
  /** Clause ids the whole test names. */
  clauses?: string[];
  /** Clause-tagged checks in execution order. */
  checks?: CheckRecord[];
  /** Requests sent to the target by this test (retries included). */
  requests?: number;
  /** Retries among them. */
  retries?: number;
  /**
   * When each attempt was sent and when it ended (ms since the epoch, to 0.1 ms): the reporter
   * folds a file's spans into its `requests.overlap` (helpers/report/overlap.ts) and keeps none.
   */
  spans?: [number, number][];
  /** Last few exchanges, redacted, kept as failure evidence. */
  exchanges?: Exchange[];
  /** Undocumented fields or codes seen. */
  drift?: DriftRecord[];
  /**
   * The target gave no answer of the API after the retries (connection error, timeout, a
   * gateway's page, throttled past the retries) or the test ran out of time: a failure of this
   * test is an `error` verdict. A 5xx in the API's envelope does not set it: it is an answer, and
   * the check that expected another status judges it.
   */
  targetTrouble?: boolean;
  /** The first target trouble, in words (redacted): "GET /x: 502 text/html from the gateway …", or what a cut-off test waited on. */
  trouble?: string;
  /**
   * Set with the first target trouble: whether a check had already failed on an answer that
   * arrived before it. Such a failure is the target's, whatever came after: the test is `fail`
   * (helpers/report/verdict.ts).
   */
  failedBeforeTrouble?: boolean;
  /** The test received a complete 2xx answer whose body is not JSON: its later failing checks are not evaluated. */
  notJson?: boolean;
  /** Attempts that got no answer within the request deadline (helpers/base/deadline.ts). */
  hung?: number;
  /** Answers that were not the API's: a gateway's 5xx page, a body cut short by the connection. */
  notApi?: number;
  /** Answers whose body did not parse, whose request was sent once more (helpers/http/mangled.ts). */
  notJsonResent?: number;
  /** Why the run's own side spoilt this test's evidence (helpers/live/own-side.ts): an `error`, never a `fail`. */
  ownSide?: OwnSideKind;
  /** The authorization-matrix cell this test decides, when it is one. */
  matrixCell?: MatrixCell;
  /** Why the test was skipped (capability missing, optional fixture absent, opt-in not given). */
  skipReason?: string;
  /**
   * What would lift the skip: switch names of helpers/target/target.ts `SWITCHES` (`wildcardDns`,
   * `control`, `rotatedKey`, …); absent when no switch would (a failed precondition).
   */
  skipNeeds?: string[];
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- vitest's meta is the record's shape
  interface TaskMeta extends TestMeta {}
}
