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
import { isObject as isJsonObject, render } from '../base/values';

/** Whether a parsed JSON value is an object (not an array, not null): the one test, helpers/base/values.ts. */
export const isObject = isJsonObject as (v: unknown) => v is Record<string, UncheckedJson>;

/**
 * Expected against actual for the fields `keys` of two objects: `{ expected: 'k: <was>; …', actual:
 * '<where>: k: <now>; …' }`, each value rendered (helpers/base/values.ts).
 */
export function fieldsFound(where: string, was: Record<string, unknown>, now: Record<string, unknown>, keys: string[]): { expected: string; actual: string } {
  const list = (o: Record<string, unknown>) => keys.map((k) => `${k}: ${render(o[k])}`).join('; ');
  return { expected: list(was), actual: `${where}: ${list(now)}` };
}

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
 * through the record's one way in (`TestRecorder.judge`: worded and redacted as the engine's).
 * @param clause one of the audit's clauses
 * @param ok whether the invariant held on this exchange
 * @param found what was expected and what was found, for a failure
 */
export function judged(audit: AuditDefinition, clause: string, ok: boolean, requirement: string, found?: { expected: unknown; actual: unknown }): void {
  const record = currentRecord();
  if (!record) return;
  record.audited(audit.name);
  record.judge({ clauses: [clause], requirement, ok, passOnce: true, ...(ok ? {} : found) });
}
