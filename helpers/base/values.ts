/**
 * JSON values as failure text and as objects: the one renderer of a value for a failure line, a
 * case name or a difference (issue #40 item 5), and the one test for "a JSON object". Every
 * module that words a value calls {@link render}, so a value reads the same in every report: JSON
 * (strings quoted), a missing value as {@link ABSENT_WORD}, a string of one repeated character as
 * `"a"×2001`, and anything longer than {@link RENDER_CUT} characters cut with `…`.
 */

/** The most characters of a rendered value (before the closing `…`). */
export const RENDER_CUT = 300;

/** The one word for a value that is not there (a field absent, no body). */
export const ABSENT_WORD = 'absent';

/** A duration in ms as seconds with one decimal (`10.2 s`): the one way reports and messages word one. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Whether a value is a JSON object: not an array, not null. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A value as failure text: {@link ABSENT_WORD} for undefined; a string of one repeated character
 * (longer than 40) as `"a"×N`; else JSON, or `String(v)` when JSON cannot say it (a BigInt, a
 * cycle); cut after {@link RENDER_CUT} characters with `…`. Never throws.
 */
export function render(v: unknown): string {
  if (v === undefined) return ABSENT_WORD;
  if (typeof v === 'string' && v.length > 40 && v === v[0].repeat(v.length)) return `${JSON.stringify(v[0])}×${v.length}`;
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    s = undefined;
  }
  s ??= String(v);
  return s.length > RENDER_CUT ? `${s.slice(0, RENDER_CUT)}…` : s;
}
