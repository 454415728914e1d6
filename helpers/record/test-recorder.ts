/**
 * The per-test record, as an explicit object: checks, drift, exchanges, request counts, target
 * trouble and skip reasons of one test go into its {@link TestMeta} (helpers/base/meta.ts; vitest keeps
 * it as the task's meta) through a {@link TestRecorder} only. The check engine (helpers/checks/engine.ts)
 * is handed one and writes into it; the client and the envelope audit find the running test's
 * through helpers/record/recorder.ts. helpers/report/vitest-reporter.ts is the record's one reader.
 * This module knows no vitest.
 */
import type { Exchange } from '../base/exchange';
import { redact } from '../base/redact';
import { render } from '../base/values';
import { failedOnAnAnswer, type CheckRecord, type DriftRecord, type MatrixCell, type OwnSideKind, type TestMeta } from '../base/meta';

/**
 * One judgment to record (issue #40 item 3): the one shape in which the check engine, the
 * invariant audits and the envelope audit hand a check to {@link TestRecorder.judge}, which words,
 * redacts and records it the same way for all.
 */
export interface Judgment {
  /** Clause ids the check proves. */
  clauses: string[];
  /** The requirement in plain words. */
  requirement: string;
  ok: boolean;
  /** Verdict strength (default `must`; see {@link CheckRecord}). */
  level?: CheckRecord['level'];
  /** What the clause expects: words as they are, any other value rendered (helpers/base/values.ts). */
  expected?: unknown;
  /** What was found, likewise. */
  actual?: unknown;
  /** Why the check could not be evaluated (the answer was not JSON): the failure text says so instead of expected and actual. */
  unevaluated?: string;
  /** The exchange the check judged, described for the failure text (built only when the check fails). */
  evidence?: () => string;
  /** Record a pass once per clause and test (the audits judge every exchange): a later pass of the same first clause is dropped. */
  passOnce?: boolean;
}

/** A value as failure text: words as they are, anything else rendered. */
function words(v: unknown): string {
  return typeof v === 'string' ? v : render(v);
}

/** How many exchanges a test keeps as failure evidence (the latest). */
export const KEPT_EXCHANGES = 5;

/**
 * One test's record. Once `closed()` answers true (the test was judged: passed, failed or cut
 * off), writes are dropped, so a cut-off test's late work changes nothing of its record; reads
 * still answer.
 */
export class TestRecorder {
  /**
   * @param meta the object written into (a vitest task's meta, or `{}` for a record of its own)
   * @param closed whether the test was already judged (default: never)
   */
  constructor(
    readonly meta: TestMeta,
    private readonly closed: () => boolean = () => false,
  ) {}

  /** Whether writes still land (the test is not judged yet). */
  get open(): boolean {
    return !this.closed();
  }

  /**
   * Records one judgment, the one way into the record for a check (the engine, the audits and the
   * envelope audit all come here): a pass as `{ clauses, requirement, ok }`; a failure or a
   * finding with `expected` and `actual` kept apart (redacted) and the failure text
   * `[ids] requirement / expected: … / actual: …` (or `not evaluated: …`), redacted, with the
   * exchange's description after it. Answers that text for a failure, undefined for a pass.
   */
  judge(j: Judgment): string | undefined {
    const base = { clauses: j.clauses, requirement: j.requirement, ok: j.ok, ...(j.level && j.level !== 'must' ? { level: j.level } : {}) };
    if (j.ok && j.passOnce && this.checks.some((c) => c.ok && c.clauses[0] === j.clauses[0])) return undefined;
    if (j.ok && j.expected === undefined && j.actual === undefined) {
      this.check(base);
      return undefined;
    }
    const expected = j.expected === undefined ? undefined : redact(words(j.expected));
    const actual = j.actual === undefined ? undefined : redact(words(j.actual));
    const body = j.unevaluated
      ? `\n  not evaluated: ${j.unevaluated}`
      : `${expected === undefined ? '' : `\n  expected: ${expected}`}${actual === undefined ? '' : `\n  actual:   ${actual}`}`;
    const detail = redact(`[${j.clauses.join(' ')}] ${j.requirement}${body}`) + (j.ok ? '' : (j.evidence?.() ?? ''));
    this.check({
      ...base,
      detail,
      ...(expected === undefined ? {} : { expected }),
      ...(actual === undefined ? {} : { actual }),
      ...(j.unevaluated ? { unevaluated: j.unevaluated } : {}),
    });
    return j.ok ? undefined : detail;
  }

  /** Writes one check record (through {@link judge} only). */
  private check(rec: CheckRecord): void {
    if (this.open) (this.meta.checks ??= []).push(rec);
  }

  /** The checks recorded so far, in order. */
  get checks(): readonly CheckRecord[] {
    return this.meta.checks ?? [];
  }

  /** Records undocumented fields or codes the target sent (§9.4: drift, reported, never failed). */
  drift(...drift: DriftRecord[]): void {
    if (this.open && drift.length) (this.meta.drift ??= []).push(...drift);
  }

  /**
   * Records one exchange: counts it (with `retries` resends) and keeps it among the last
   * {@link KEPT_EXCHANGES} as evidence. `exchange` must already be redacted.
   */
  exchange(exchange: Exchange, retries: number): void {
    if (!this.open) return;
    const m = this.meta;
    m.requests = (m.requests ?? 0) + 1 + retries;
    m.retries = (m.retries ?? 0) + retries;
    const list = (m.exchanges ??= []);
    list.push(exchange);
    if (list.length > KEPT_EXCHANGES) list.shift();
  }

  /** Records when one attempt was sent and when it ended (ms since the epoch; helpers/report/overlap.ts). */
  span(start: number, end: number): void {
    if (this.open) (this.meta.spans ??= []).push([Math.round(start * 10) / 10, Math.round(end * 10) / 10]);
  }

  /** The exchanges kept (the latest {@link KEPT_EXCHANGES}). */
  get exchanges(): readonly Exchange[] {
    return this.meta.exchanges ?? [];
  }

  /**
   * Marks the test as having met target trouble (no answer of the API after the retries, or it
   * ran out of time): a failure from then on becomes an `error` verdict, while a check that had
   * already failed keeps the test a `fail` (helpers/report/verdict.ts). `what` (redacted) is kept
   * as the first such trouble.
   */
  targetTrouble(what?: string): void {
    if (!this.open) return;
    const m = this.meta;
    if (!m.targetTrouble) m.failedBeforeTrouble = (m.checks ?? []).some(failedOnAnAnswer);
    m.targetTrouble = true;
    if (what && !m.trouble) m.trouble = what;
  }

  /**
   * Marks the test's evidence as spoilt on the run's own side (helpers/live/own-side.ts): the first
   * kind is kept, and `what` is recorded as target trouble, so the test is an `error` (or stays a
   * `fail` when a check had already failed on an earlier answer).
   */
  ownSide(kind: OwnSideKind, what: string): void {
    if (!this.open) return;
    this.meta.ownSide ??= kind;
    this.targetTrouble(what);
  }

  /** Counts one exchange an invariant audit judged (helpers/audits/), under the audit's name. */
  audited(name: string): void {
    if (!this.open) return;
    const a = (this.meta.audits ??= {});
    a[name] = (a[name] ?? 0) + 1;
  }

  /** Counts one attempt that hung past the request deadline. */
  hung(): void {
    if (this.open) this.meta.hung = (this.meta.hung ?? 0) + 1;
  }

  /** Counts one answer whose body did not parse and whose request was sent once more (helpers/http/mangled.ts). */
  notJsonResent(): void {
    if (this.open) this.meta.notJsonResent = (this.meta.notJsonResent ?? 0) + 1;
  }

  /** Counts one answer that was not the API's (a gateway's 5xx page, a body cut short). */
  notApi(): void {
    if (this.open) this.meta.notApi = (this.meta.notApi ?? 0) + 1;
  }

  /**
   * Records why the test is skipped (shown in the report) and the switches that would lift the
   * skip (helpers/target/target.ts `Switch`; the report counts the clauses each would turn on).
   */
  skipReason(reason: string, needs: readonly string[] = []): void {
    if (!this.open) return;
    this.meta.skipReason = reason;
    if (needs.length) this.meta.skipNeeds = [...new Set(needs)];
  }

  /** Records the authorization-matrix cell the test decides (rendered by the report writers). */
  matrixCell(cell: MatrixCell): void {
    if (this.open) this.meta.matrixCell = cell;
  }

  /** Marks the test as having received a complete 2xx answer whose body is not JSON (§2.1). */
  markNotJson(): void {
    if (this.open) this.meta.notJson = true;
  }

  /** Whether the test received a complete 2xx answer whose body is not JSON. */
  get receivedNotJson(): boolean {
    return this.meta.notJson === true;
  }
}
