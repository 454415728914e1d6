/**
 * The one definition of "unchanged" (issue #40 item 2), cited by every check of
 * `4.1/rejected-patch-changes-nothing` (a refused write changes nothing) and `4.1/omitted-unchanged`
 * (an accepted PATCH leaves every field it does not name as it was): `verify.unchanged`
 * (helpers/checks/engine.ts), the assistant-state audit (helpers/audits/assistant-state.ts) and the
 * judgment of another writer (helpers/live/write-journal.ts) all compare with {@link sameValue} and
 * {@link movedKeys}, on the fields {@link documentedPart} keeps, with stamps read by {@link stampOf}.
 *
 * The rule ({@link UNCHANGED_RULE}):
 * - a field absent and a field `null` are the same, at every depth (§2.4: `null` deletes a key and
 *   a later GET omits it; the "null or omitted" readings of §2.2's optional fields);
 * - fields the server owns are not compared ({@link SERVER_OWNED}: `featureFlags`, response only, §2.2);
 * - `updatedAt` is compared only where no accepted write lies between the reads (the caller names
 *   {@link WRITE_STAMPS} aside otherwise);
 * - a stamp (`updatedAt`) is a string or a number (§2.2 "date-time, date, number or null"), compared as text.
 */
import { isDeepStrictEqual } from 'node:util';
import { isObject } from '../base/values';

/** The rule in words, for a check's expectation and the docs. */
export const UNCHANGED_RULE = 'absent and null alike';

/** Documented fields the server owns and may move on its own (§2.2: `featureFlags`, response only): never compared. */
export const SERVER_OWNED: readonly string[] = ['featureFlags'];

/** A value with every `null` member of an object removed, at every depth (absent and null alike). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, withoutNulls(x)]])));
}

/** Whether two values are the same under the rule: deep equality, a member absent and a member `null` alike; a whole value `undefined` and `null` alike. */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(withoutNulls(a ?? null), withoutNulls(b ?? null));
}

/**
 * The top-level keys whose values differ under {@link sameValue}, of `fields` when given (else of
 * both objects). Both values must be objects; anything else has no keys to name (an empty list,
 * and the caller compares the whole values with {@link sameValue}).
 */
export function movedKeys(was: unknown, now: unknown, fields?: readonly string[]): string[] {
  if (!isObject(was) || !isObject(now)) return [];
  const keys = fields ?? [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys.filter((k) => !sameValue(was[k], now[k]));
}

/** `updatedAt` of a resource, or of an answer's `json.data`, as text (a string or a number, §2.2); undefined when neither. */
export function stampOf(value: unknown): string | undefined {
  const v = value as { updatedAt?: unknown; json?: { data?: { updatedAt?: unknown } } } | undefined;
  const u = v?.updatedAt ?? v?.json?.data?.updatedAt;
  return typeof u === 'string' || typeof u === 'number' ? String(u) : undefined;
}
