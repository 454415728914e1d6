/**
 * Field paths and readings: where a value sits in a PATCH body or a GET answer, and what a GET may
 * show after a write (§2.2-§2.7). Pure functions, no I/O.
 */
import { isDeepStrictEqual } from 'node:util';
import { render } from '../base/values';

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number;

/** `['settings','conversationConfig','interruptionPlan','minDuration']` → `settings.conversationConfig.interruptionPlan.minDuration`; indexes as `[0]`. */
export function formatPath(path: readonly PathSegment[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Parses a dotted path such as `settings.transferDialTimeout` (no indexes). */
export function parsePath(dotted: string): PathSegment[] {
  return dotted.split('.').filter(Boolean);
}

/** Sentinel returned by {@link getAt} when a key is absent (distinct from a stored null). */
export const ABSENT: unique symbol = Symbol('absent');

/** The value at `path` in `root`, or {@link ABSENT} when any step is missing or not a container. */
export function getAt(root: unknown, path: readonly PathSegment[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !(seg in cur)) return ABSENT;
    cur = (cur as Record<PathSegment, unknown>)[seg];
  }
  return cur;
}

/**
 * How a GET may show a cleared value (spec wording "null clears", "deleted", "omits"):
 * `null` (stored null), `absent` (key missing), `empty-object` ({}), `empty-array` ([]: a list
 * emptied).
 */
export type ClearedReading = 'null' | 'absent' | 'empty-object' | 'empty-array';

/** The JSON types a {@link Reading} of kind `type` names: `array`, `object` (not an array, not null), `string`, `number`. */
export type JsonType = 'array' | 'object' | 'string' | 'number';

/**
 * What a GET must show at a path after an accepted write:
 * - `equals`: deep-equal to `value`;
 * - `numeric`: a number (or numeric string) equal to `value` (integer fields; §2.2 response "number");
 * - `contains`: an object holding every key of `value` with an equal value (deep), other keys allowed
 *   (open documents whose merge rule this case does not decide);
 * - `cleared`: one of `readings`;
 * - `type`: present and of the JSON type `type` (a shape the spec states, whatever the value);
 * - `present`: the key is there, whatever its value (null included);
 * - `set`: an array holding exactly the members of `value`, in any order, repeats collapsed (a
 *   stored set, §2.2 toolIds);
 * - `anyOf`: any one of `readings` (where the spec leaves the stored form open, e.g. an id read
 *   back in lower case or as sent).
 */
export type Reading =
  | { kind: 'equals'; value: unknown }
  | { kind: 'numeric'; value: number }
  | { kind: 'contains'; value: Record<string, unknown> }
  | { kind: 'cleared'; readings: ClearedReading[] }
  | { kind: 'type'; type: JsonType }
  | { kind: 'present' }
  | { kind: 'set'; value: readonly unknown[] }
  | { kind: 'anyOf'; readings: Reading[] };

function isJsonType(actual: unknown, type: JsonType): boolean {
  if (type === 'array') return Array.isArray(actual);
  if (type === 'object') return !!actual && typeof actual === 'object' && !Array.isArray(actual);
  return typeof actual === type;
}

function isCleared(actual: unknown, r: ClearedReading): boolean {
  if (r === 'absent') return actual === ABSENT;
  if (r === 'null') return actual === null;
  return isDeepStrictEqual(actual, r === 'empty-object' ? {} : []);
}

function contains(actual: unknown, expected: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
  }
  return isDeepStrictEqual(actual, expected);
}

/** True when `actual` (a value from {@link getAt}, possibly {@link ABSENT}) satisfies `reading`. */
export function readingHolds(reading: Reading, actual: unknown): boolean {
  switch (reading.kind) {
    case 'equals':
      // JSON has no -0: a number read back equals the number expected when === says so (0 and -0 alike).
      return actual !== ABSENT && (isDeepStrictEqual(actual, reading.value) || (typeof actual === 'number' && actual === reading.value));
    case 'numeric':
      return (typeof actual === 'number' || (typeof actual === 'string' && actual.trim() !== '')) && Number(actual) === reading.value;
    case 'contains':
      return actual !== ABSENT && contains(actual, reading.value);
    case 'cleared':
      return reading.readings.some((r) => isCleared(actual, r));
    case 'type':
      return actual !== ABSENT && isJsonType(actual, reading.type);
    case 'present':
      return actual !== ABSENT;
    case 'set':
      return Array.isArray(actual) && sameMembers(actual, reading.value);
    case 'anyOf':
      return reading.readings.some((r) => readingHolds(r, actual));
  }
}

function sameMembers(actual: readonly unknown[], expected: readonly unknown[]): boolean {
  const has = (list: readonly unknown[], v: unknown) => list.some((x) => isDeepStrictEqual(x, v));
  return actual.every((v) => has(expected, v)) && expected.every((v) => has(actual, v));
}

/** Plain words for a reading, for check messages. */
export function describeReading(reading: Reading): string {
  switch (reading.kind) {
    case 'equals':
      return JSON.stringify(reading.value);
    case 'numeric':
      return `the number ${reading.value}`;
    case 'contains':
      return `an object containing ${JSON.stringify(reading.value)}`;
    case 'cleared':
      return `cleared: ${reading.readings.map((r) => (r === 'empty-object' ? '{}' : r === 'empty-array' ? '[]' : r)).join(' or ')}`;
    case 'type':
      return reading.type === 'array' || reading.type === 'object' ? `an ${reading.type}` : `a ${reading.type}`;
    case 'present':
      return 'present';
    case 'set':
      return `the set ${JSON.stringify(reading.value)} (any order)`;
    case 'anyOf':
      return reading.readings.map(describeReading).join(', or ');
  }
}

/** Plain words for a value read with {@link getAt}. */
export function describeActual(actual: unknown): string {
  return render(actual === ABSENT ? undefined : actual);
}
