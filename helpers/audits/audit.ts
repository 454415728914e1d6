/**
 * What every invariant audit shares (issue 34): a stated invariant of the spec, judged on every
 * matching exchange of every suite, as the envelope audit judges every answer (Schemathesis runs
 * every enabled check on every response). An audit is a {@link AuditDefinition}: its name, the
 * clauses it records and the invariant in words. Its verdicts go into the running test's record:
 * a passing judgement once per clause and test, a failing one every time (soft: raised when the
 * test body ends, as the envelope audit's are), and the count of exchanges it judged (the run
 * record's `audits`, so the report names each audit with how many exchanges it judged).
 *
 * An audit judges only what it can tie to the run's own exchanges: where another writer, an
 * unknown outcome or a concurrent request could explain what it sees, it does not judge (never a
 * false `fail`; a missed judgement is only a smaller count).
 */
import { currentRecord } from '../record/current-test';
import type { UncheckedJson } from '../base/exchange';
import { isObject as isJsonObject } from '../base/values';

/** Whether a parsed JSON value is an object (not an array, not null): the one test, helpers/base/values.ts. */
export const isObject = isJsonObject as (v: unknown) => v is Record<string, UncheckedJson>;

/** One invariant audit: its name (as the report counts it), the clauses it records, the invariant in words. */
export interface AuditDefinition {
  name: string;
  clauses: readonly string[];
  invariant: string;
}

/**
 * Records one judgement of `audit` on the running test: the exchange is counted, and the check
 * recorded (a pass once per clause and test; every failure, with `detail`). Outside a test nothing
 * is recorded.
 * @param clause one of the audit's clauses
 * @param ok whether the invariant held on this exchange
 * @param detail expected against actual, for a failure (redacted by the record's readers)
 */
export function judged(audit: AuditDefinition, clause: string, ok: boolean, requirement: string, detail?: string): void {
  const record = currentRecord();
  if (!record) return;
  record.audited(audit.name);
  if (ok && record.checks.some((c) => c.ok && c.clauses[0] === clause)) return;
  record.check({ clauses: [clause], requirement, ok, level: 'must', ...(ok ? {} : { detail: `[${clause}] ${detail ?? requirement}` }) });
}
