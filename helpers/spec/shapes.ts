/**
 * Reading answers whose inner shape the spec does not show (§4.5 "not shown"): where the rows of a
 * list are, and whether a value occurs anywhere in a document. No test depends on key order or on
 * the position of a field (§9.4).
 */
import type { UncheckedJson } from '../base/exchange';

/** Rows of a list answer whose shape is not shown: `data` itself when it is an array, else the first array among its values, else []. */
export function rowsOf(data: unknown): UncheckedJson[] {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') for (const v of Object.values(data)) if (Array.isArray(v)) return v;
  return [];
}

/**
 * Whether `text` occurs as an exact string value anywhere in `value` (nested objects and arrays);
 * with `keys: true`, also as a property name (ids used as map keys).
 */
export function containsString(value: unknown, text: string, opts: { keys?: boolean } = {}): boolean {
  if (typeof value === 'string') return value === text;
  if (Array.isArray(value)) return value.some((v) => containsString(v, text, opts));
  if (value && typeof value === 'object') {
    if (opts.keys && Object.prototype.hasOwnProperty.call(value, text)) return true;
    return Object.values(value).some((v) => containsString(v, text, opts));
  }
  return false;
}
